// The preset price table: the vendors' list prices of the models people sell, kept in the
// repository so a gateway without internet access prices them from the first start.
// lib/options/presets/ratios.ts turns it into the defaults of ModelRatio, CompletionRatio,
// CacheRatio and ModelPrice; docs/pricing.md says how to update it.
//
// Prices are USD per 1M tokens at the vendor's standard tier (the smallest context tier,
// no batch discount); cachedInput is the price of a cache hit (null when the vendor lists
// none). Per-call models (images) have perRequest in USD per call and no token prices.
// cacheWrite and cacheWrite1h are the prices of a prompt-cache write kept five minutes and one
// hour, for the models whose vendor bills writes (Anthropic's Claude: CACHE_WRITES below);
// OpenAI, Gemini (implicit caching), DeepSeek and the others bill no write.
// Qwen cache hits are the implicit cache (20 % of input) on the models that have it.
import "server-only";

export type Vendor = "openai" | "anthropic" | "google" | "deepseek" | "qwen" | "mistral" | "xai" | "moonshot" | "zhipu";

export type PresetModel = {
  vendor: Vendor;
  model: string; // the exact API id a client sends
  input: number | null;
  output: number | null;
  cachedInput: number | null;
  perRequest?: number;
  cacheWrite?: number;
  cacheWrite1h?: number;
};

export const PRESET_TABLE_DATE = "2026-11-23";

type Row = [model: string, input: number | null, output: number | null, cachedInput: number | null, perRequest?: number];

const rows: Record<Vendor, Row[]> = {
  openai: [
    ["gpt-5.1", 1.25, 10, 0.125],
    ["gpt-5.1-chat-latest", 1.25, 10, 0.125],
    ["gpt-5", 1.25, 10, 0.125],
    ["gpt-5-2025-08-07", 1.25, 10, 0.125],
    ["gpt-5-chat-latest", 1.25, 10, 0.125],
    ["gpt-5-codex", 1.25, 10, 0.125],
    ["gpt-5-mini", 0.25, 2, 0.025],
    ["gpt-5-mini-2025-08-07", 0.25, 2, 0.025],
    ["gpt-5-nano", 0.05, 0.4, 0.005],
    ["gpt-5-nano-2025-08-07", 0.05, 0.4, 0.005],
    ["gpt-4.1", 2, 8, 0.5],
    ["gpt-4.1-2025-04-14", 2, 8, 0.5],
    ["gpt-4.1-mini", 0.4, 1.6, 0.1],
    ["gpt-4.1-mini-2025-04-14", 0.4, 1.6, 0.1],
    ["gpt-4.1-nano", 0.1, 0.4, 0.025],
    ["gpt-4.1-nano-2025-04-14", 0.1, 0.4, 0.025],
    ["gpt-4o", 2.5, 10, 1.25],
    ["gpt-4o-2024-08-06", 2.5, 10, 1.25],
    ["gpt-4o-2024-11-20", 2.5, 10, 1.25],
    ["gpt-4o-2024-05-13", 5, 15, null],
    ["chatgpt-4o-latest", 5, 15, null],
    ["gpt-4o-mini", 0.15, 0.6, 0.075],
    ["gpt-4o-mini-2024-07-18", 0.15, 0.6, 0.075],
    ["o1", 15, 60, 7.5],
    ["o1-2024-12-17", 15, 60, 7.5],
    ["o1-mini", 1.1, 4.4, 0.55],
    ["o1-pro", 150, 600, null],
    ["o3", 2, 8, 0.5],
    ["o3-2025-04-16", 2, 8, 0.5],
    ["o3-pro", 20, 80, null],
    ["o3-mini", 1.1, 4.4, 0.55],
    ["o3-mini-2025-01-31", 1.1, 4.4, 0.55],
    ["o4-mini", 1.1, 4.4, 0.275],
    ["o4-mini-2025-04-16", 1.1, 4.4, 0.275],
    ["codex-mini-latest", 1.5, 6, 0.375],
    ["gpt-4-turbo", 10, 30, null],
    ["gpt-4-turbo-2024-04-09", 10, 30, null],
    ["gpt-4", 30, 60, null],
    ["gpt-3.5-turbo", 0.5, 1.5, null],
    ["gpt-3.5-turbo-0125", 0.5, 1.5, null],
    ["text-embedding-3-small", 0.02, null, null],
    ["text-embedding-3-large", 0.13, null, null],
    ["text-embedding-ada-002", 0.1, null, null],
    ["dall-e-3", null, null, null, 0.04],
    ["dall-e-2", null, null, null, 0.02],
  ],
  anthropic: [
    ["claude-opus-4-5", 5, 25, 0.5],
    ["claude-opus-4-5-20251101", 5, 25, 0.5],
    ["claude-sonnet-4-5", 3, 15, 0.3],
    ["claude-sonnet-4-5-20250929", 3, 15, 0.3],
    ["claude-haiku-4-5", 1, 5, 0.1],
    ["claude-haiku-4-5-20251001", 1, 5, 0.1],
    ["claude-opus-4-1", 15, 75, 1.5],
    ["claude-opus-4-1-20250805", 15, 75, 1.5],
    ["claude-opus-4-0", 15, 75, 1.5],
    ["claude-opus-4-20250514", 15, 75, 1.5],
    ["claude-sonnet-4-0", 3, 15, 0.3],
    ["claude-sonnet-4-20250514", 3, 15, 0.3],
    ["claude-3-7-sonnet-latest", 3, 15, 0.3],
    ["claude-3-7-sonnet-20250219", 3, 15, 0.3],
    ["claude-3-5-sonnet-latest", 3, 15, 0.3],
    ["claude-3-5-sonnet-20241022", 3, 15, 0.3],
    ["claude-3-5-sonnet-20240620", 3, 15, 0.3],
    ["claude-3-5-haiku-latest", 0.8, 4, 0.08],
    ["claude-3-5-haiku-20241022", 0.8, 4, 0.08],
    ["claude-3-opus-latest", 15, 75, 1.5],
    ["claude-3-opus-20240229", 15, 75, 1.5],
    ["claude-3-haiku-20240307", 0.25, 1.25, 0.03],
  ],
  google: [
    ["gemini-3-pro-preview", 2, 12, 0.2],
    ["gemini-2.5-pro", 1.25, 10, 0.125],
    ["gemini-2.5-pro-preview-06-05", 1.25, 10, 0.125],
    ["gemini-2.5-pro-preview-05-06", 1.25, 10, 0.125],
    ["gemini-2.5-flash", 0.3, 2.5, 0.03],
    ["gemini-2.5-flash-preview-09-2025", 0.3, 2.5, 0.03],
    ["gemini-flash-latest", 0.3, 2.5, 0.03],
    ["gemini-2.5-flash-lite", 0.1, 0.4, 0.01],
    ["gemini-2.5-flash-lite-preview-09-2025", 0.1, 0.4, 0.01],
    ["gemini-flash-lite-latest", 0.1, 0.4, 0.01],
    ["gemini-2.5-flash-image", 0.3, 30, null],
    ["gemini-2.5-flash-image-preview", 0.3, 30, null],
    ["gemini-2.0-flash", 0.1, 0.4, 0.025],
    ["gemini-2.0-flash-001", 0.1, 0.4, 0.025],
    ["gemini-2.0-flash-lite", 0.075, 0.3, null],
    ["gemini-2.0-flash-lite-001", 0.075, 0.3, null],
    ["gemini-1.5-pro", 1.25, 5, 0.3125],
    ["gemini-1.5-flash", 0.075, 0.3, 0.01875],
    ["gemini-1.5-flash-8b", 0.0375, 0.15, 0.01],
    ["gemini-embedding-001", 0.15, null, null],
    ["imagen-4.0-generate-001", null, null, null, 0.04],
    ["imagen-4.0-fast-generate-001", null, null, null, 0.02],
    ["imagen-4.0-ultra-generate-001", null, null, null, 0.06],
    ["imagen-3.0-generate-002", null, null, null, 0.03],
  ],
  deepseek: [
    // DeepSeek-V3.2 behind both ids: cache miss 0.28, cache hit 0.028, output 0.42
    ["deepseek-chat", 0.28, 0.42, 0.028],
    ["deepseek-reasoner", 0.28, 0.42, 0.028],
  ],
  qwen: [
    ["qwen3-max", 1.2, 6, 0.24],
    ["qwen3-max-preview", 1.2, 6, null],
    ["qwen-max", 1.6, 6.4, 0.32],
    ["qwen-max-latest", 1.6, 6.4, null],
    ["qwen-max-2025-01-25", 1.6, 6.4, null],
    ["qwen-plus", 0.4, 1.2, 0.08],
    ["qwen-plus-latest", 0.4, 1.2, null],
    ["qwen-turbo", 0.05, 0.2, 0.01],
    ["qwen-turbo-latest", 0.05, 0.2, null],
    ["qwen-flash", 0.05, 0.4, 0.01],
    ["qwq-plus", 0.8, 2.4, null],
    ["qwen-vl-max", 0.8, 3.2, null],
    ["qwen-vl-plus", 0.21, 0.63, null],
    ["qwen3-vl-plus", 0.2, 1.6, null],
    ["qwen3-coder-plus", 1, 5, 0.2],
    ["qwen3-coder-flash", 0.3, 1.5, 0.06],
    ["qwen3-coder-480b-a35b-instruct", 1.5, 7.5, null],
    ["qwen3-235b-a22b", 0.7, 2.8, null],
    ["qwen3-235b-a22b-instruct-2507", 0.7, 2.8, null],
    ["qwen3-235b-a22b-thinking-2507", 0.7, 8.4, null],
    ["qwen3-next-80b-a3b-instruct", 0.15, 1.2, null],
    ["qwen3-32b", 0.7, 2.8, null],
    ["qwen3-30b-a3b", 0.2, 0.8, null],
    ["qwen3-14b", 0.35, 1.4, null],
    ["qwen3-8b", 0.18, 0.7, null],
    ["qwen2.5-72b-instruct", 1.4, 5.6, null],
  ],
  mistral: [
    ["mistral-large-latest", 2, 6, null],
    ["mistral-large-2411", 2, 6, null],
    ["mistral-medium-latest", 0.4, 2, null],
    ["mistral-medium-2508", 0.4, 2, null],
    ["mistral-medium-2505", 0.4, 2, null],
    ["mistral-small-latest", 0.1, 0.3, null],
    ["mistral-small-2506", 0.1, 0.3, null],
    ["mistral-small-2503", 0.1, 0.3, null],
    ["magistral-medium-latest", 2, 5, null],
    ["magistral-medium-2509", 2, 5, null],
    ["magistral-small-latest", 0.5, 1.5, null],
    ["magistral-small-2509", 0.5, 1.5, null],
    ["codestral-latest", 0.3, 0.9, null],
    ["codestral-2508", 0.3, 0.9, null],
    ["codestral-2501", 0.3, 0.9, null],
    ["devstral-medium-latest", 0.4, 2, null],
    ["devstral-medium-2507", 0.4, 2, null],
    ["devstral-small-latest", 0.1, 0.3, null],
    ["devstral-small-2507", 0.1, 0.3, null],
    ["pixtral-large-latest", 2, 6, null],
    ["pixtral-large-2411", 2, 6, null],
    ["pixtral-12b-2409", 0.15, 0.15, null],
    ["ministral-8b-latest", 0.1, 0.1, null],
    ["ministral-8b-2410", 0.1, 0.1, null],
    ["ministral-3b-latest", 0.04, 0.04, null],
    ["ministral-3b-2410", 0.04, 0.04, null],
    ["open-mistral-nemo", 0.15, 0.15, null],
    ["mistral-saba-latest", 0.2, 0.6, null],
    ["mistral-embed", 0.1, null, null],
  ],
  xai: [
    ["grok-4", 3, 15, 0.75],
    ["grok-4-0709", 3, 15, 0.75],
    ["grok-4-latest", 3, 15, 0.75],
    ["grok-4-1-fast-reasoning", 0.2, 0.5, 0.05],
    ["grok-4-1-fast-non-reasoning", 0.2, 0.5, 0.05],
    ["grok-4-fast-reasoning", 0.2, 0.5, 0.05],
    ["grok-4-fast-non-reasoning", 0.2, 0.5, 0.05],
    ["grok-code-fast-1", 0.2, 1.5, 0.02],
    ["grok-3", 3, 15, 0.75],
    ["grok-3-latest", 3, 15, 0.75],
    ["grok-3-mini", 0.3, 0.5, 0.075],
    ["grok-3-mini-latest", 0.3, 0.5, 0.075],
    ["grok-2-vision-1212", 2, 10, null],
    ["grok-2-1212", 2, 10, null],
    ["grok-2-image-1212", null, null, null, 0.07],
  ],
  moonshot: [
    ["kimi-k2-thinking", 0.6, 2.5, 0.15],
    ["kimi-k2-thinking-turbo", 1.15, 8, 0.15],
    ["kimi-k2-0905-preview", 0.6, 2.5, 0.15],
    ["kimi-k2-0711-preview", 0.6, 2.5, 0.15],
    ["kimi-k2-turbo-preview", 1.15, 8, 0.15],
    ["moonshot-v1-8k", 0.2, 2, null],
    ["moonshot-v1-32k", 1, 3, null],
    ["moonshot-v1-128k", 2, 5, null],
    ["moonshot-v1-8k-vision-preview", 0.2, 2, null],
    ["moonshot-v1-32k-vision-preview", 1, 3, null],
    ["moonshot-v1-128k-vision-preview", 2, 5, null],
  ],
  zhipu: [
    ["glm-4.6", 0.6, 2.2, 0.11],
    ["glm-4.5", 0.6, 2.2, 0.11],
    ["glm-4.5-x", 2.2, 8.9, 0.45],
    ["glm-4.5-air", 0.2, 1.1, 0.03],
    ["glm-4.5-airx", 1.1, 4.5, 0.22],
    ["glm-4.5v", 0.6, 1.8, 0.11],
    ["glm-4-32b-0414-128k", 0.1, 0.1, null],
    ["cogview-4-250304", null, null, null, 0.01],
  ],
};

// Prompt-cache write prices, USD per 1M tokens: [5-minute write, 1-hour write], as Anthropic's
// pricing page lists them ("5m cache writes", "1h cache writes"; checked 2026-11-28,
// docs/pricing.md). Mostly 1.25× and 2× input, but not always (Claude Haiku 3: 1.2×).
const CACHE_WRITES: Record<string, [fiveMinutes: number, oneHour: number]> = {
  "claude-opus-4-5": [6.25, 10],
  "claude-opus-4-5-20251101": [6.25, 10],
  "claude-sonnet-4-5": [3.75, 6],
  "claude-sonnet-4-5-20250929": [3.75, 6],
  "claude-haiku-4-5": [1.25, 2],
  "claude-haiku-4-5-20251001": [1.25, 2],
  "claude-opus-4-1": [18.75, 30],
  "claude-opus-4-1-20250805": [18.75, 30],
  "claude-opus-4-0": [18.75, 30],
  "claude-opus-4-20250514": [18.75, 30],
  "claude-sonnet-4-0": [3.75, 6],
  "claude-sonnet-4-20250514": [3.75, 6],
  "claude-3-7-sonnet-latest": [3.75, 6],
  "claude-3-7-sonnet-20250219": [3.75, 6],
  "claude-3-5-sonnet-latest": [3.75, 6],
  "claude-3-5-sonnet-20241022": [3.75, 6],
  "claude-3-5-sonnet-20240620": [3.75, 6],
  "claude-3-5-haiku-latest": [1, 1.6],
  "claude-3-5-haiku-20241022": [1, 1.6],
  "claude-3-opus-latest": [18.75, 30],
  "claude-3-opus-20240229": [18.75, 30],
  "claude-3-haiku-20240307": [0.3, 0.5],
};

export const PRESET_MODELS: readonly PresetModel[] = Object.entries(rows).flatMap(([vendor, list]) =>
  list.map(([model, input, output, cachedInput, perRequest]): PresetModel => {
    const entry: PresetModel = { vendor: vendor as Vendor, model, input, output, cachedInput };
    if (perRequest !== undefined) entry.perRequest = perRequest;
    const writes = Object.hasOwn(CACHE_WRITES, model) ? CACHE_WRITES[model] : undefined;
    if (writes) {
      entry.cacheWrite = writes[0];
      entry.cacheWrite1h = writes[1];
    }
    return entry;
  }),
);
