// Google Gemini (channel type 24): POST {base}/v1beta/models/{model}:generateContent or
// :streamGenerateContent?alt=sse, and :embedContent / :batchEmbedContents for embeddings; key
// in the x-goog-api-key header (never in the URL, where it could end up in a log line).
import "server-only";
import type { ChannelView, ChatRequest, ChatResponse, Choice, ContentPart, EmbedInput, FinishReason, ToolCall, Usage } from "@/lib/relay/types";
import { RelayError } from "@/lib/relay/types";
import { fallbackError, joinVersioned, numberVector, redact, tryJson, typeForStatus } from "./common";
import type { ProviderAdapter, StreamParser } from "./types";

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

export function geminiBody(req: ChatRequest): Json {
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
  const g: Json = {};
  if (req.temperature !== undefined) g.temperature = req.temperature;
  if (req.topP !== undefined) g.topP = req.topP;
  if (req.maxTokens !== undefined) g.maxOutputTokens = req.maxTokens;
  if (req.stop) g.stopSequences = req.stop;
  if (req.n !== undefined && req.n > 1) g.candidateCount = req.n;
  if (Object.keys(g).length) body.generationConfig = g;
  return body;
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
    reasoning_tokens: thoughts,
  };
}

function finish(r: unknown, hasCalls: boolean): FinishReason {
  if (r === "MAX_TOKENS") return "length";
  if (r === "SAFETY" || r === "RECITATION" || r === "BLOCKLIST" || r === "PROHIBITED_CONTENT" || r === "SPII" || r === "IMAGE_SAFETY") return "content_filter";
  return hasCalls ? "tool_calls" : "stop";
}

function parseChat(body: unknown): ChatResponse {
  const b = body as Json;
  if (!b || typeof b !== "object") throw new RelayError(502, "upstream answer is not an object", "upstream_error", "bad_response");
  const cands = Array.isArray(b.candidates) ? (b.candidates as Json[]) : [];
  const choices: Choice[] = cands.map((c, i) => {
    let text = "";
    let reasoning = "";
    const calls: ToolCall[] = [];
    const parts = ((c.content as Json | undefined)?.parts as Json[] | undefined) ?? [];
    for (const p of parts) {
      if (typeof p.text === "string") {
        if (p.thought) reasoning += p.text;
        else text += p.text;
      } else if (p.functionCall) {
        const f = p.functionCall as Json;
        calls.push({ id: String(f.id ?? `call_${i}_${calls.length}`), name: String(f.name ?? ""), arguments: JSON.stringify(f.args ?? {}) });
      }
    }
    const ch: Choice = { index: typeof c.index === "number" ? c.index : i, text, finishReason: finish(c.finishReason, calls.length > 0) };
    if (reasoning) ch.reasoning = reasoning;
    if (calls.length) ch.toolCalls = calls;
    return ch;
  });
  // a prompt blocked before generation has no candidates
  if (!choices.length) choices.push({ index: 0, text: "", finishReason: b.promptFeedback ? "content_filter" : "stop" });
  const res: ChatResponse = { id: String(b.responseId ?? ""), model: String(b.modelVersion ?? ""), created: Math.floor(Date.now() / 1000), choices };
  if (b.usageMetadata && typeof b.usageMetadata === "object") res.usage = usageOf(b.usageMetadata as Json);
  return res;
}

function streamParser(): StreamParser {
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

const modelUrl = (ch: ChannelView, action: string) =>
  joinVersioned(ch.base_url || DEFAULT_BASE, "/v1beta", `/models/${encodeURIComponent(ch.upstreamModel)}:${action}`);

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
  supports: { stream: true, tools: true, images: true, n: true, passthrough: [] },
  chatRequest(req, ch: ChannelView) {
    const action = req.stream ? "streamGenerateContent?alt=sse" : "generateContent";
    return { url: modelUrl(ch, action), headers: headersFor(ch), body: JSON.stringify(geminiBody(req)) };
  },
  chatPayload(req, ch: ChannelView) {
    const action = req.stream ? "streamGenerateContent?alt=sse" : "generateContent";
    return { url: modelUrl(ch, action), headers: headersFor(ch), json: geminiBody(req) };
  },
  parseChat,
  streamParser,
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
  parseError(status, body, ch) {
    const j = tryJson(body);
    const e = (Array.isArray(j) ? (j[0] as Json | undefined)?.error : (j as Json | undefined)?.error) as Json | undefined;
    if (e && typeof e.message === "string")
      return { status, message: redact(e.message, ch), type: typeForStatus(status), code: e.status ? String(e.status) : null };
    return fallbackError(status, body, ch);
  },
};
