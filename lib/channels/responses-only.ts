// The channel setting `responses_only` (in the channel's `setting` JSON object): an
// OpenAI-wire channel whose models exist only on /v1/responses. The relay then writes every
// chat, Anthropic or Gemini call to it as a Responses request (lib/relay/providers/
// openai-responses.ts) and passes Responses calls through. Pure: read by the channel cache
// (once per load, never per call) and by the channel editor (docs/relay.md, "The Responses API").
import { CHANNEL_TYPE } from "@/lib/channels/channel-types";

export const RESPONSES_ONLY_SETTING = "responses_only";

/** The channel types that speak OpenAI's wire, where the flag means something (the relay's OpenAI-wire adapters and Azure). */
export const RESPONSES_ONLY_TYPES: ReadonlySet<number> = new Set([
  CHANNEL_TYPE.OPENAI,
  CHANNEL_TYPE.AZURE,
  CHANNEL_TYPE.OLLAMA,
  CHANNEL_TYPE.CUSTOM,
  CHANNEL_TYPE.OPENROUTER,
  CHANNEL_TYPE.MOONSHOT,
  CHANNEL_TYPE.PERPLEXITY,
  CHANNEL_TYPE.SILICONFLOW,
  CHANNEL_TYPE.MISTRAL,
  CHANNEL_TYPE.DEEPSEEK,
  CHANNEL_TYPE.XAI,
]);

function settingObject(setting: string | null | undefined): Record<string, unknown> | null {
  if (!setting || !setting.trim()) return null;
  try {
    const v: unknown = JSON.parse(setting);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Whether a channel of this type and setting is served on /v1/responses only. */
export function isResponsesOnly(type: number, setting: string | null | undefined): boolean {
  return RESPONSES_ONLY_TYPES.has(type) && settingObject(setting)?.[RESPONSES_ONLY_SETTING] === true;
}

/** The setting text with the flag set or removed, every other key kept as it was. */
export function withResponsesOnly(setting: string | null | undefined, on: boolean): string {
  const o = settingObject(setting) ?? {};
  if (on) o[RESPONSES_ONLY_SETTING] = true;
  else delete o[RESPONSES_ONLY_SETTING];
  return Object.keys(o).length ? JSON.stringify(o) : "";
}
