// Ingress format: Gemini generateContent / streamGenerateContent (POST
// /v1beta/models/{model}:generateContent, :streamGenerateContent?alt=sse). The model and the
// action come from the URL (parseGeminiPath), not from the body.
import "server-only";
import { z } from "zod";
import {
  eachSegment,
  type ChatRequest,
  type ContentPart,
  type FinishReason,
  type Message,
  type ToolCall,
  type ToolChoice,
  type UpstreamError,
  type Usage,
} from "@/lib/relay/types";
import { MAX_N, dropUnsetBudgets, json, parseArgs, zodToRelayError, type IngressFormat, type ParseContext, type StreamRenderer, outputBudget } from "./types";
import { RelayError } from "@/lib/relay/types";
import { dict } from "@/lib/own-keys";

const part = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  inlineData: z.object({ mimeType: z.string(), data: z.string() }).optional(),
  fileData: z.looseObject({ mimeType: z.string().optional(), fileUri: z.string() }).optional(),
  functionCall: z.looseObject({ id: z.string().optional(), name: z.string(), args: z.record(z.string(), z.unknown()).optional() }).optional(),
  functionResponse: z.looseObject({ id: z.string().optional(), name: z.string(), response: z.record(z.string(), z.unknown()).optional() }).optional(),
});
const content = z.object({ role: z.enum(["user", "model", "function"]).optional(), parts: z.array(part) });
const schema = z.looseObject({
  contents: z.array(content).min(1),
  systemInstruction: z.object({ role: z.string().optional(), parts: z.array(part) }).optional(),
  tools: z
    .array(
      z.looseObject({
        functionDeclarations: z
          .array(
            z.looseObject({
              name: z.string().min(1),
              description: z.string().optional(),
              parameters: z.record(z.string(), z.unknown()).optional(),
              parametersJsonSchema: z.record(z.string(), z.unknown()).optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
  toolConfig: z
    .looseObject({
      functionCallingConfig: z
        .looseObject({
          mode: z.enum(["AUTO", "ANY", "NONE", "VALIDATED", "MODE_UNSPECIFIED"]).optional(),
          allowedFunctionNames: z.array(z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
  generationConfig: z
    .looseObject({
      temperature: z.number().min(0).max(2).optional(),
      topP: z.number().min(0).max(1).optional(),
      maxOutputTokens: outputBudget.optional(),
      stopSequences: z.array(z.string()).optional(),
      candidateCount: z.number().int().min(1).max(MAX_N).optional(),
    })
    .optional(),
});

/** Gemini's schemas write types in upper case (OBJECT, STRING); JSON Schema wants lower case. */
export function lowerSchemaTypes(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(lowerSchemaTypes);
  if (!s || typeof s !== "object") return s;
  const out = dict<unknown>();
  for (const [k, v] of Object.entries(s)) out[k] = k === "type" && typeof v === "string" ? v.toLowerCase() : lowerSchemaTypes(v);
  return out;
}

/** `/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse` → model and stream flag. */
export function parseGeminiPath(url: string): { model: string; action: string; stream: boolean } | null {
  const m = /\/models\/([^/:?]+):([A-Za-z]+)/.exec(url);
  if (!m) return null;
  return { model: decodeURIComponent(m[1]), action: m[2], stream: m[2] === "streamGenerateContent" };
}

const BUDGETS = ["maxOutputTokens"] as const;

function parse(body: unknown, ctx?: ParseContext): ChatRequest {
  if (!ctx?.model) throw new RelayError(400, "Invalid request: the model is missing from the URL", "invalid_request_error", "invalid_request");
  if (body && typeof body === "object") dropUnsetBudgets((body as { generationConfig?: unknown }).generationConfig, BUDGETS);
  const r = schema.safeParse(body);
  if (!r.success) throw zodToRelayError(r.error, "request");
  const b = r.data;
  const messages: Message[] = [];
  // Gemini function calls may lack ids: give them ids in order, and match each response to
  // the oldest unanswered call of the same name
  const pending = new Map<string, string[]>();
  let seq = 0;
  for (const c of b.contents) {
    const role = c.role === "model" ? "assistant" : "user";
    const parts: ContentPart[] = [];
    const calls: ToolCall[] = [];
    for (const p of c.parts) {
      if (p.thought) continue;
      if (p.text !== undefined) parts.push({ type: "text", text: p.text });
      else if (p.inlineData) parts.push({ type: "image", data: p.inlineData.data, mimeType: p.inlineData.mimeType });
      else if (p.fileData) parts.push({ type: "image", url: p.fileData.fileUri, mimeType: p.fileData.mimeType });
      else if (p.functionCall) {
        const id = p.functionCall.id ?? `call_${seq++}`;
        calls.push({ id, name: p.functionCall.name, arguments: json(p.functionCall.args ?? {}) });
        const q = pending.get(p.functionCall.name) ?? [];
        q.push(id);
        pending.set(p.functionCall.name, q);
      } else if (p.functionResponse) {
        const fr = p.functionResponse;
        const id = fr.id ?? pending.get(fr.name)?.shift() ?? `call_${seq++}`;
        messages.push({ role: "tool", toolCallId: id, toolName: fr.name, content: [{ type: "text", text: json(fr.response ?? {}) }] });
      }
    }
    if (parts.length || calls.length) {
      const msg: Message = { role, content: parts };
      if (calls.length) msg.toolCalls = calls;
      messages.push(msg);
    }
  }
  const req: ChatRequest = { model: ctx.model, messages, stream: ctx.stream === true };
  const sys = b.systemInstruction?.parts.map((p) => p.text ?? "").join("\n");
  if (sys) req.system = sys;
  const decls = b.tools?.flatMap((t) => t.functionDeclarations ?? []) ?? [];
  if (decls.length)
    req.tools = decls.map((d) => ({
      name: d.name,
      description: d.description,
      parameters: (d.parametersJsonSchema ?? (d.parameters ? lowerSchemaTypes(d.parameters) : undefined)) as Record<string, unknown> | undefined,
    }));
  const fc = b.toolConfig?.functionCallingConfig;
  if (fc?.mode) {
    let choice: ToolChoice = "auto";
    if (fc.mode === "NONE") choice = "none";
    else if (fc.mode === "ANY") choice = fc.allowedFunctionNames?.length === 1 ? { name: fc.allowedFunctionNames[0] } : "required";
    req.toolChoice = choice;
  }
  const g = b.generationConfig;
  if (g) {
    if (g.temperature !== undefined) req.temperature = g.temperature;
    if (g.topP !== undefined) req.topP = g.topP;
    if (g.maxOutputTokens !== undefined) req.maxTokens = g.maxOutputTokens;
    if (g.stopSequences?.length) req.stop = g.stopSequences;
    if (g.candidateCount !== undefined) req.n = g.candidateCount;
  }
  return req;
}

const FINISH: Record<FinishReason, string> = { stop: "STOP", length: "MAX_TOKENS", tool_calls: "STOP", content_filter: "SAFETY" };

function usageJson(u: Usage) {
  const out: Record<string, number> = {
    promptTokenCount: u.prompt_tokens,
    candidatesTokenCount: u.completion_tokens - u.reasoning_tokens,
    totalTokenCount: u.prompt_tokens + u.completion_tokens,
  };
  if (u.cached_tokens) out.cachedContentTokenCount = u.cached_tokens;
  if (u.reasoning_tokens) out.thoughtsTokenCount = u.reasoning_tokens;
  return out;
}

const STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ABORTED",
  429: "RESOURCE_EXHAUSTED",
  499: "CANCELLED",
  500: "INTERNAL",
  501: "NOT_IMPLEMENTED",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};
const errorBody = (err: UpstreamError) =>
  json({ error: { code: err.status, message: err.message, status: STATUS[err.status] ?? (err.status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION") } });

function streamRenderer(req: ChatRequest): StreamRenderer {
  const id = "resp_" + Math.random().toString(36).slice(2, 14);
  // Gemini sends a function call whole: arguments are gathered until the choice finishes
  const calls = new Map<number, { name: string; args: string; id: string }[]>();
  const finish = new Map<number, FinishReason>();
  const chunk = (candidates: unknown[], usage?: Usage) =>
    `data: ${json(usage ? { candidates, usageMetadata: usageJson(usage), modelVersion: req.model, responseId: id } : { candidates, modelVersion: req.model, responseId: id })}\r\n\r\n`;
  return {
    event(e) {
      switch (e.type) {
        case "text":
          return chunk([{ content: { role: "model", parts: [{ text: e.text }] }, index: e.index }]);
        case "reasoning":
          return chunk([{ content: { role: "model", parts: [{ text: e.text, thought: true }] }, index: e.index }]);
        case "image":
          // an image the model produced: an inline part, as Gemini sends it
          return chunk([{ content: { role: "model", parts: [{ inlineData: { mimeType: e.mimeType, data: e.data } }] }, index: e.index }]);
        case "tool_call_start": {
          const list = calls.get(e.index) ?? [];
          list[e.callIndex] = { name: e.name, args: "", id: e.id };
          calls.set(e.index, list);
          return "";
        }
        case "tool_call_args": {
          const c = calls.get(e.index)?.[e.callIndex];
          if (c) c.args += e.args;
          return "";
        }
        case "finish":
          finish.set(e.index, e.reason);
          return "";
        default:
          return "";
      }
    },
    end(usage) {
      const n = Math.max(1, req.n ?? 1);
      const candidates: unknown[] = [];
      for (let i = 0; i < n; i++) {
        const list = calls.get(i);
        const parts = list?.length ? list.filter(Boolean).map((c) => ({ functionCall: { name: c.name, args: parseArgs(c.args) } })) : [{ text: "" }];
        candidates.push({ content: { role: "model", parts }, finishReason: FINISH[finish.get(i) ?? "stop"], index: i });
      }
      return chunk(candidates, usage);
    },
    error(err) {
      return `data: ${errorBody(err)}\r\n\r\n`;
    },
  };
}

export const gemini: IngressFormat = {
  name: "gemini",
  parse,
  renderResponse(res, req, usage) {
    return json({
      candidates: res.choices.map((c) => {
        const parts: unknown[] = [];
        if (c.reasoning) parts.push({ text: c.reasoning, thought: true });
        // the text, with the model's images as inline parts where they came
        eachSegment(
          c,
          (text) => parts.push({ text }),
          (img) => parts.push({ inlineData: { mimeType: img.mimeType, data: img.data } }),
        );
        if (c.toolCalls) for (const t of c.toolCalls) parts.push({ functionCall: { name: t.name, args: parseArgs(t.arguments) } });
        if (!parts.length) parts.push({ text: "" });
        return { content: { role: "model", parts }, finishReason: FINISH[c.finishReason], index: c.index };
      }),
      usageMetadata: usageJson(usage),
      modelVersion: req.model,
      responseId: res.id,
    });
  },
  streamRenderer,
  renderError(err) {
    return { status: err.status, body: errorBody(err) };
  },
};

// The request schema, also read by the relay's OpenAPI document (docs/api-reference.md).
export { schema as geminiRequest };
