// Google Gemini (channel type 24): POST {base}/v1beta/models/{model}:generateContent or
// :streamGenerateContent?alt=sse, and :embedContent / :batchEmbedContents for embeddings; key
// in the x-goog-api-key header (never in the URL, where it could end up in a log line).
// The gemini.* options apply here (docs/relay-options.md, "Gemini"): safety settings and API
// version per model, the `-thinking` / `-nothinking` suffixes, and image output for the
// models listed in gemini.supported_imagine_models.
import "server-only";
import { getBool, getJson, getNumber, getOption } from "@/lib/options/store";
import type { OptionKey } from "@/lib/options/registry";
import type {
  ChannelView,
  ChatRequest,
  ChatResponse,
  Choice,
  ContentPart,
  EmbedInput,
  FinishReason,
  OutputImage,
  ReasoningEffort,
  ToolCall,
  UpstreamError,
  Usage,
} from "@/lib/relay/types";
import { RelayError } from "@/lib/relay/types";
import { fallbackError, joinVersioned, numberVector, redact, tryJson, typeForStatus } from "./common";
import type { ProviderAdapter, StreamParser } from "./types";
import { nowSeconds } from "@/lib/time";

type Json = Record<string, unknown>;
const DEFAULT_BASE = "https://generativelanguage.googleapis.com";

function part(p: ContentPart): Json {
  if (p.type === "text") return { text: p.text };
  if (p.data) return { inlineData: { mimeType: p.mimeType ?? "image/png", data: p.data } };
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(p.url ?? "");
  if (m) return { inlineData: { mimeType: m[1], data: m[2] } };
  return { fileData: { mimeType: p.mimeType ?? "image/jpeg", fileUri: p.url } };
}

function responseObject(parts: ContentPart[]): Json {
  const text = parts.map((p) => (p.type === "text" ? p.text : "")).join("");
  const v = text ? tryJson(text) : undefined;
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : { content: text };
}

function args(text: string): Json {
  const v = text ? tryJson(text) : undefined;
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {};
}

// ---- the gemini.* options ----

/** A per-model value of a {"default": ..., "model": ...} option: the model's, else the default. */
function perModel(key: OptionKey, model: string): unknown {
  const m = getJson<Record<string, unknown> | null>(key, null);
  if (!m || typeof m !== "object" || Array.isArray(m)) return undefined;
  return Object.hasOwn(m, model) ? m[model] : m.default;
}

/** Whether a JSON-array option lists the model. */
function listed(key: OptionKey, model: string): boolean {
  const list = getJson<unknown>(key, null);
  return Array.isArray(list) && list.includes(model);
}

// The harm categories Gemini's generateContent accepts a threshold for.
export const HARM_CATEGORIES = [
  "HARM_CATEGORY_HARASSMENT",
  "HARM_CATEGORY_HATE_SPEECH",
  "HARM_CATEGORY_SEXUALLY_EXPLICIT",
  "HARM_CATEGORY_DANGEROUS_CONTENT",
  "HARM_CATEGORY_CIVIC_INTEGRITY",
] as const;

// gemini.safety_settings: per model (else "default") either one threshold for every category
// ("OFF", "BLOCK_NONE", "BLOCK_ONLY_HIGH"...) or an object {category: threshold}. The list
// sent is built once per model and option text, and shared by the calls (read-only).
let safetySource: string | undefined;
const safetyByModel = new Map<string, Json[] | null>();
function safetySettings(model: string): Json[] | null {
  const raw = getOption("gemini.safety_settings");
  if (raw !== safetySource) {
    safetySource = raw;
    safetyByModel.clear();
  }
  let list = safetyByModel.get(model);
  if (list === undefined) {
    const v = perModel("gemini.safety_settings", model);
    list = null;
    if (typeof v === "string" && v) list = HARM_CATEGORIES.map((category) => ({ category, threshold: v }));
    else if (v && typeof v === "object" && !Array.isArray(v)) {
      list = [];
      for (const category in v as Record<string, unknown>) {
        const threshold = (v as Record<string, unknown>)[category];
        if (typeof threshold === "string" && threshold) list.push({ category, threshold });
      }
      if (!list.length) list = null;
    }
    if (safetyByModel.size >= 1000) safetyByModel.clear();
    safetyByModel.set(model, list);
  }
  return list;
}

/** gemini.version_settings: the API version for a model (v1beta unless set). */
function apiVersion(model: string): string {
  const v = perModel("gemini.version_settings", model);
  return typeof v === "string" && /^v\d+[a-z0-9]*$/.test(v) ? v : "v1beta";
}

type Thinking = "on" | "off";
/** The model without a thinking suffix, and what the suffix asks for (gemini.thinking_adapter_enabled). */
function splitThinking(model: string): [string, Thinking | undefined] {
  if (!model.endsWith("thinking") || !getBool("gemini.thinking_adapter_enabled")) return [model, undefined];
  if (model.endsWith("-nothinking")) return [model.slice(0, -"-nothinking".length), "off"];
  if (model.endsWith("-thinking")) return [model.slice(0, -"-thinking".length), "on"];
  return [model, undefined];
}

/** The model name sent to Gemini (a thinking suffix dropped when the adapter is on). */
export function geminiUpstreamModel(model: string): string {
  return splitThinking(model)[0];
}

// `-thinking`: thoughts included, and for a model listed in gemini.models_supported_thinking_budget
// a budget of share × the client's max output tokens (gemini.thinking_adapter_budget_tokens_percentage,
// 0.002 to 1; no budget, Gemini's dynamic one, when the client gave none). `-nothinking`: a
// budget of 0 for a listed model; an unlisted one only loses the suffix.
function thinkingConfig(mode: Thinking, model: string, maxTokens: number | undefined): Json | undefined {
  const budgeted = listed("gemini.models_supported_thinking_budget", model);
  if (mode === "off") return budgeted ? { thinkingBudget: 0 } : undefined;
  const c: Json = { includeThoughts: true };
  if (budgeted && maxTokens) {
    let share = getNumber("gemini.thinking_adapter_budget_tokens_percentage", 0.6);
    if (!(share >= 0.002 && share <= 1)) share = 0.6;
    c.thinkingBudget = Math.max(1, Math.floor(maxTokens * share));
  }
  return c;
}

const IMAGE_MODALITIES = ["TEXT", "IMAGE"];

/** An image Gemini produced (an inline part of an image type), else undefined (other inline data is dropped). */
function outputImage(p: Json): OutputImage | undefined {
  const d = (p.inlineData ?? p.inline_data) as Json | undefined;
  if (!d || typeof d.data !== "string") return undefined;
  const mimeType = String(d.mimeType ?? d.mime_type ?? "image/png");
  return mimeType.startsWith("image/") ? { mimeType, data: d.data } : undefined;
}

export function geminiBody(req: ChatRequest, upstreamModel: string): Json {
  const contents: { role: string; parts: Json[] }[] = [];
  const push = (role: string, parts: Json[]) => {
    if (!parts.length) return;
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const m of req.messages) {
    if (m.role === "tool") push("user", [{ functionResponse: { name: m.toolName ?? "", response: responseObject(m.content) } }]);
    else if (m.role === "assistant") {
      const parts = m.content.filter((p) => p.type !== "text" || p.text).map(part);
      if (m.toolCalls) for (const t of m.toolCalls) parts.push({ functionCall: { name: t.name, args: args(t.arguments) } });
      push("model", parts);
    } else push("user", m.content.map(part));
  }
  const body: Json = { contents };
  if (req.system) body.systemInstruction = { parts: [{ text: req.system }] };
  if (req.tools?.length)
    body.tools = [
      {
        functionDeclarations: req.tools.map((t) => ({
          name: t.name,
          description: t.description ?? "",
          parametersJsonSchema: t.parameters ?? { type: "object", properties: {} },
        })),
      },
    ];
  if (req.toolChoice) {
    const c = req.toolChoice;
    body.toolConfig = {
      functionCallingConfig:
        typeof c === "object" ? { mode: "ANY", allowedFunctionNames: [c.name] } : { mode: c === "required" ? "ANY" : c === "none" ? "NONE" : "AUTO" },
    };
  }
  const [model, thinking] = splitThinking(upstreamModel);
  const g: Json = {};
  if (req.temperature !== undefined) g.temperature = req.temperature;
  if (req.topP !== undefined) g.topP = req.topP;
  if (req.maxTokens !== undefined) g.maxOutputTokens = req.maxTokens;
  if (req.stop) g.stopSequences = req.stop;
  if (req.n !== undefined && req.n > 1) g.candidateCount = req.n;
  // a `-thinking` / `-nothinking` model name comes before a reasoning effort
  if (thinking) {
    const t = thinkingConfig(thinking, model, req.maxTokens);
    if (t) g.thinkingConfig = t;
  } else if (req.reasoningEffort) g.thinkingConfig = thinkingForEffort(req.reasoningEffort);
  if (listed("gemini.supported_imagine_models", model)) g.responseModalities = IMAGE_MODALITIES;
  // structured output: JSON mode, and the schema as JSON Schema (responseJsonSchema, the
  // JSON-Schema form of responseSchema, as the tools' parametersJsonSchema)
  if (req.responseFormat) {
    g.responseMimeType = "application/json";
    if (req.responseFormat.type === "json_schema" && req.responseFormat.schema) g.responseJsonSchema = req.responseFormat.schema;
  }
  if (Object.keys(g).length) body.generationConfig = g;
  const safety = safetySettings(model);
  if (safety) body.safetySettings = safety;
  return body;
}

// A reasoning effort (the Responses API's reasoning.effort) as a thinking budget: "none" turns
// thinking off; the others stay within what every 2.5 model accepts (512 to 24576), and the
// thoughts are asked back so that the client sees its reasoning.
const THINKING_BUDGET: Record<ReasoningEffort, number> = { none: 0, minimal: 512, low: 1024, medium: 8192, high: 24576, xhigh: 24576 };
function thinkingForEffort(effort: ReasoningEffort): Json {
  const budget = THINKING_BUDGET[effort];
  return budget === 0 ? { thinkingBudget: 0 } : { thinkingBudget: budget, includeThoughts: true };
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/** Gemini's candidatesTokenCount excludes thoughts; canonical completion_tokens includes them. */
function usageOf(u: Json): Usage {
  const thoughts = num(u.thoughtsTokenCount);
  return {
    prompt_tokens: num(u.promptTokenCount) + num(u.toolUsePromptTokenCount),
    completion_tokens: num(u.candidatesTokenCount) + thoughts,
    cached_tokens: num(u.cachedContentTokenCount),
    cache_creation_tokens: 0,
    cache_creation_1h_tokens: 0,
    reasoning_tokens: thoughts,
  };
}

function finish(r: unknown, hasCalls: boolean): FinishReason {
  if (r === "MAX_TOKENS") return "length";
  if (r === "SAFETY" || r === "RECITATION" || r === "BLOCKLIST" || r === "PROHIBITED_CONTENT" || r === "SPII" || r === "IMAGE_SAFETY") return "content_filter";
  return hasCalls ? "tool_calls" : "stop";
}

/** A generateContent answer (Gemini's and Vertex AI's Gemini models': lib/relay/providers/vertex.ts). */
export function parseGeminiChat(body: unknown): ChatResponse {
  const b = body as Json;
  if (!b || typeof b !== "object") throw new RelayError(502, "upstream answer is not an object", "upstream_error", "bad_response");
  const cands = Array.isArray(b.candidates) ? (b.candidates as Json[]) : [];
  const choices: Choice[] = cands.map((c, i) => {
    let text = "";
    let reasoning = "";
    const calls: ToolCall[] = [];
    let images: Choice["images"];
    const parts = ((c.content as Json | undefined)?.parts as Json[] | undefined) ?? [];
    for (const p of parts) {
      if (typeof p.text === "string") {
        if (p.thought) reasoning += p.text;
        else text += p.text;
      } else if (p.inlineData || p.inline_data) {
        // an image stands where it came among the text (Choice.images)
        const image = outputImage(p);
        if (image) (images ??= []).push({ mimeType: image.mimeType, data: image.data, offset: text.length });
      } else if (p.functionCall) {
        const f = p.functionCall as Json;
        calls.push({ id: String(f.id ?? `call_${i}_${calls.length}`), name: String(f.name ?? ""), arguments: JSON.stringify(f.args ?? {}) });
      }
    }
    const ch: Choice = { index: typeof c.index === "number" ? c.index : i, text, finishReason: finish(c.finishReason, calls.length > 0) };
    if (reasoning) ch.reasoning = reasoning;
    if (calls.length) ch.toolCalls = calls;
    if (images) ch.images = images;
    return ch;
  });
  // a prompt blocked before generation has no candidates
  if (!choices.length) choices.push({ index: 0, text: "", finishReason: b.promptFeedback ? "content_filter" : "stop" });
  const res: ChatResponse = { id: String(b.responseId ?? ""), model: String(b.modelVersion ?? ""), created: nowSeconds(), choices };
  if (b.usageMetadata && typeof b.usageMetadata === "object") res.usage = usageOf(b.usageMetadata as Json);
  return res;
}

/** The streamGenerateContent?alt=sse events (shared with Vertex AI). */
export function geminiStreamParser(): StreamParser {
  let started = false;
  const calls = new Map<number, number>();
  return {
    parse(data, _event, emit) {
      const c = tryJson(data) as Json | undefined;
      if (!c) return;
      if (c.error) {
        const e = c.error as Json;
        const status = typeof e.code === "number" ? e.code : 500;
        emit({
          type: "error",
          error: { status, message: String(e.message ?? "upstream error"), type: typeForStatus(status), code: e.status ? String(e.status) : null },
        });
        return;
      }
      if (!started) {
        started = true;
        emit({ type: "start", id: String(c.responseId ?? ""), model: String(c.modelVersion ?? "") });
      }
      if (Array.isArray(c.candidates))
        for (const cand of c.candidates as Json[]) {
          const index = typeof cand.index === "number" ? cand.index : 0;
          const parts = ((cand.content as Json | undefined)?.parts as Json[] | undefined) ?? [];
          for (const p of parts) {
            if (typeof p.text === "string") {
              if (p.text) emit({ type: p.thought ? "reasoning" : "text", index, text: p.text });
            } else if (p.inlineData || p.inline_data) {
              const image = outputImage(p);
              if (image) emit({ type: "image", index, mimeType: image.mimeType, data: image.data });
            } else if (p.functionCall) {
              const f = p.functionCall as Json;
              const callIndex = calls.get(index) ?? 0;
              calls.set(index, callIndex + 1);
              emit({ type: "tool_call_start", index, callIndex, id: String(f.id ?? `call_${index}_${callIndex}`), name: String(f.name ?? "") });
              emit({ type: "tool_call_args", index, callIndex, args: JSON.stringify(f.args ?? {}) });
            }
          }
          if (cand.finishReason) emit({ type: "finish", index, reason: finish(cand.finishReason, (calls.get(index) ?? 0) > 0) });
        }
      if (c.usageMetadata && typeof c.usageMetadata === "object") emit({ type: "usage", usage: usageOf(c.usageMetadata as Json) });
    },
  };
}

function headersFor(ch: ChannelView): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", "x-goog-api-key": ch.key };
  if (ch.headers) for (const k in ch.headers) headers[k.toLowerCase()] = ch.headers[k];
  return headers;
}

// the version of gemini.version_settings, unless the channel's base URL names one itself
const modelUrl = (ch: ChannelView, action: string, model = geminiUpstreamModel(ch.upstreamModel)) =>
  joinVersioned(ch.base_url || DEFAULT_BASE, "/" + apiVersion(model), `/models/${encodeURIComponent(model)}:${action}`);

// One input as Gemini's EmbedContentRequest. The hints are sent only when given: Gemini
// refuses outputDimensionality on its older models.
function embedContentRequest(input: EmbedInput, model: string): Json {
  const r: Json = { model, content: { parts: input.parts.map((text) => ({ text })) } };
  if (input.taskType) r.taskType = input.taskType;
  if (input.title) r.title = input.title;
  if (input.dimensions) r.outputDimensionality = input.dimensions;
  return r;
}

export const gemini: ProviderAdapter = {
  name: "gemini",
  profile: {
    defaultBaseUrl: DEFAULT_BASE,
    testModel: "gemini-2.0-flash",
    knownModels: ["gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite", "gemini-2.0-flash", "gemini-2.0-flash-lite", "text-embedding-004"],
    // the key goes in a header, never in a URL (a URL can surface in an error message)
    async listModels(ch, http) {
      const r = await http.getJson(joinVersioned(ch.base_url || DEFAULT_BASE, "/v1beta", "/models?pageSize=1000"), { "x-goog-api-key": ch.key });
      return ((r.models ?? []) as Array<{ name?: unknown }>).map((m) => String(m.name ?? "").replace(/^models\//, ""));
    },
  },
  supports: { stream: true, tools: true, images: true, n: true, passthrough: [] },
  chatRequest(req, ch: ChannelView) {
    const action = req.stream ? "streamGenerateContent?alt=sse" : "generateContent";
    return { url: modelUrl(ch, action), headers: headersFor(ch), body: JSON.stringify(geminiBody(req, ch.upstreamModel)) };
  },
  chatPayload(req, ch: ChannelView) {
    const action = req.stream ? "streamGenerateContent?alt=sse" : "generateContent";
    return { url: modelUrl(ch, action), headers: headersFor(ch), json: geminiBody(req, ch.upstreamModel) };
  },
  ingress: "gemini",
  rawChatPayload(json, req, ch) {
    // Gemini names the model in the URL: the body goes as the client wrote it
    const action = req.stream ? "streamGenerateContent?alt=sse" : "generateContent";
    return { url: modelUrl(ch, action, ch.upstreamModel), headers: headersFor(ch), json };
  },
  parseChat: parseGeminiChat,
  streamParser: geminiStreamParser,
  // :countTokens with the whole generateContent request, so that the system instruction and the
  // tools are counted too
  countTokens: {
    request(req, ch) {
      const generateContentRequest = Object.assign({ model: `models/${geminiUpstreamModel(ch.upstreamModel)}` }, geminiBody(req, ch.upstreamModel));
      return { url: modelUrl(ch, "countTokens"), headers: headersFor(ch), body: JSON.stringify({ generateContentRequest }) };
    },
    parse(body) {
      const n = (body as Json | null)?.totalTokens;
      return typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : undefined;
    },
  },
  // Natively: embedContent for one input asked as one, batchEmbedContents otherwise. Every
  // request of a batch must name the batch's model, so each one gets the channel's model.
  embeddings: {
    request(req, ch) {
      const model = `models/${ch.upstreamModel}`;
      if (req.single) return { url: modelUrl(ch, "embedContent"), headers: headersFor(ch), body: JSON.stringify(embedContentRequest(req.inputs[0], model)) };
      const requests = req.inputs.map((input) => embedContentRequest(input, model));
      return { url: modelUrl(ch, "batchEmbedContents"), headers: headersFor(ch), body: JSON.stringify({ requests }) };
    },
    // Gemini's embeddings answers carry no token count: the caller estimates it.
    parse(body, req) {
      const b = body as Json | undefined;
      const list = req.single ? [b?.embedding] : b?.embeddings;
      if (!Array.isArray(list) || list[0] === undefined) throw new RelayError(502, "upstream answer has no embeddings", "upstream_error", "bad_response");
      return { vectors: list.map((e) => numberVector((e as Json | undefined)?.values)) };
    },
  },
  parseError: parseGoogleError,
};

/** A Google API error ({error: {code, message, status}}, or a list of them), shared with Vertex AI. */
export function parseGoogleError(status: number, body: string, ch: ChannelView): UpstreamError {
  const j = tryJson(body);
  const e = (Array.isArray(j) ? (j[0] as Json | undefined)?.error : (j as Json | undefined)?.error) as Json | undefined;
  if (e && typeof e.message === "string")
    return { status, message: redact(e.message, ch), type: typeForStatus(status), code: e.status ? String(e.status) : null };
  return fallbackError(status, body, ch);
}
