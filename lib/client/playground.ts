// Pure helpers of the chat playground (docs/product-rules.md, "Relay console pages"): the
// settings' bounds, the request sent to POST /pg/chat/completions, the reading of its
// server-sent events, a reply's cost, and the conversations kept in the browser
// (docs/console-ui.md, "Playground").
import { createParser } from "eventsource-parser";
import { z } from "zod";

export type ChatRole = "user" | "assistant" | "system";
export type ChatStatus = "loading" | "incomplete" | "complete" | "error";
// The token counts of a reply (the stream's last chunk, asked for with
// stream_options.include_usage) and its cost in quota units when the model has a price.
export type ReplyUsage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };
export type ChatMessage = { id: string; role: ChatRole; content: string; createAt: number; status: ChatStatus; usage?: ReplyUsage; quota?: number };

export type PlaygroundSettings = { group: string; model: string; temperature: number; maxTokens: number; systemPrompt: string };

// The slider runs 0.1..1 in steps of 0.1; before it is moved the request carries the
// default temperature 0.
export const TEMPERATURE = { min: 0.1, max: 1, step: 0.1, initial: 0 } as const;
export const DEFAULT_MODEL = "gpt-4o-mini";
export const DEFAULT_MAX_TOKENS = 0;
// The greeting exchange has ids 2 and 3; messages added later are numbered from 4.
export const GREETING_IDS = ["2", "3"] as const;
export const FIRST_MESSAGE_ID = 4;

// A slider value on the 0.1..1 grid.
export function clampTemperature(v: number): number {
  if (!Number.isFinite(v)) return TEMPERATURE.min;
  return Math.round(Math.min(TEMPERATURE.max, Math.max(TEMPERATURE.min, v)) * 10) / 10;
}

// max_tokens from the field: a positive integer, else 0 ("not sent", the model's default).
export function parseMaxTokens(raw: string): number {
  const n = Number(raw.trim());
  return raw.trim() !== "" && Number.isSafeInteger(n) && n > 0 ? n : 0;
}

export function greeting(user: string, assistant: string, now = Date.now()): ChatMessage[] {
  return [
    { id: GREETING_IDS[0], role: "user", content: user, createAt: now, status: "complete" },
    { id: GREETING_IDS[1], role: "assistant", content: assistant, createAt: now, status: "complete" },
  ];
}

// The chat request: the system prompt first when it is not empty, then the conversation
// (the greeting exchange included, as new-api does); failed and empty replies are left out.
export function chatRequest(settings: PlaygroundSettings, history: ChatMessage[]) {
  const messages: { role: ChatRole; content: string }[] = [];
  if (settings.systemPrompt.trim()) messages.push({ role: "system", content: settings.systemPrompt });
  for (const m of history) if (m.role !== "system" && m.status !== "error" && m.content) messages.push({ role: m.role, content: m.content });
  return {
    messages,
    stream: true as const,
    stream_options: { include_usage: true },
    model: settings.model,
    group: settings.group,
    ...(settings.maxTokens > 0 ? { max_tokens: Math.floor(settings.maxTokens) } : {}),
    temperature: settings.temperature,
  };
}

// One SSE data field of the stream: more text and/or the usage, the end marker, or an error
// to show.
export type StreamStep = { kind: "delta"; text: string; usage?: ReplyUsage } | { kind: "done" } | { kind: "error"; text: string } | { kind: "skip" };

export function readStreamData(data: string): StreamStep {
  if (data.trim() === "[DONE]") return { kind: "done" };
  let j: unknown;
  try {
    j = JSON.parse(data);
  } catch {
    return { kind: "skip" };
  }
  if (!j || typeof j !== "object") return { kind: "skip" };
  const o = j as { error?: unknown; choices?: { delta?: { content?: unknown } }[]; usage?: unknown };
  if (o.error !== undefined && o.error !== null) return { kind: "error", text: errorText(o.error) };
  const content = Array.isArray(o.choices) ? o.choices[0]?.delta?.content : undefined;
  const text = typeof content === "string" ? content : "";
  const usage = readUsage(o.usage);
  if (usage) return { kind: "delta", text, usage };
  return text ? { kind: "delta", text } : { kind: "skip" };
}

const count = (v: unknown) => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : 0);

// The usage object of a chunk, or null when the chunk has none.
function readUsage(u: unknown): ReplyUsage | null {
  if (!u || typeof u !== "object") return null;
  const o = u as Record<string, unknown>;
  const prompt = count(o.prompt_tokens);
  const completion = count(o.completion_tokens);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: count(o.total_tokens) || prompt + completion };
}

// A model's row of GET /api/pricing: priced by ratio (quota_type 0) or per call (1).
export type ModelPrice = { quota_type: number; model_ratio: number; completion_ratio: number; model_price: number };

// What a reply cost in quota units by the price table and the group's ratio
// (docs/product-rules.md, "Pricing"): per call model_price x group ratio dollars, else
// group ratio x model ratio x (prompt + completion x completion ratio) units; null without a
// price for the model.
export function replyQuota(usage: ReplyUsage, price: ModelPrice | undefined, groupRatio: number, quotaPerUnit: number): number | null {
  if (!price) return null;
  if (price.quota_type === 1) return Math.round(price.model_price * groupRatio * quotaPerUnit);
  return Math.round(groupRatio * price.model_ratio * (usage.prompt_tokens + usage.completion_tokens * price.completion_ratio));
}

// The text of an error object of the relay ({message} or a string), else its JSON.
export function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") return (error as { message: string }).message;
  return JSON.stringify(error);
}

// Reads the SSE body to its end and reports every step; returns whether [DONE] or an error
// ended it (false: the stream just closed).
export async function readChatStream(body: ReadableStream<Uint8Array>, onStep: (step: StreamStep) => void): Promise<boolean> {
  let finished = false;
  const parser = createParser({
    onEvent(ev) {
      if (finished) return;
      const step = readStreamData(ev.data);
      if (step.kind === "skip") return;
      if (step.kind !== "delta") finished = true;
      onStep(step);
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  parser.feed(decoder.decode());
  return finished;
}

// The message of a failed (non-2xx) answer: the relay's {error:{message}}, an envelope's
// message, else the status.
export function failedAnswerText(status: number, bodyText: string): string {
  try {
    const j = JSON.parse(bodyText) as { error?: unknown; message?: unknown };
    if (j.error !== undefined && j.error !== null) return errorText(j.error);
    if (typeof j.message === "string" && j.message) return j.message;
  } catch {
    // not JSON
  }
  return bodyText.trim() ? `HTTP ${status}: ${bodyText.trim().slice(0, 300)}` : `HTTP ${status}`;
}

// ---------- conversations kept in the browser ----------

export type Conversation = { id: string; name: string; messages: ChatMessage[]; updatedAt: number };
export type ConversationStore = { active: string; list: Conversation[] };

const storedMessage = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant", "system"]),
  content: z.string(),
  createAt: z.number(),
  status: z.enum(["loading", "incomplete", "complete", "error"]),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() }).optional(),
  quota: z.number().optional(),
});
const storedConversations = z.object({
  active: z.string(),
  list: z.array(z.object({ id: z.string(), name: z.string(), messages: z.array(storedMessage), updatedAt: z.number() })).min(1),
});

// The stored conversations (their JSON text), or null when they cannot be read. A reply that
// was still streaming when the page went away keeps what had arrived (an empty one is
// dropped); the active one is the first when the stored choice names none.
export function readConversations(text: string): ConversationStore | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = storedConversations.safeParse(raw);
  if (!parsed.success) return null;
  const list = parsed.data.list.map((c) => ({
    ...c,
    messages: c.messages
      .filter((m) => m.status !== "loading" || m.content)
      .map((m) => (m.status === "loading" || m.status === "incomplete" ? { ...m, status: "complete" as const } : m)),
  }));
  const active = list.some((c) => c.id === parsed.data.active) ? parsed.data.active : list[0].id;
  return { active, list };
}

export function conversationId(now = Date.now()): string {
  return `${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

// A conversation's name from its first question: the first line, at most 40 characters.
export const CONVERSATION_NAME_MAX = 40;
export function nameFromQuestion(text: string): string {
  const line = text.trim().split("\n")[0].trim();
  return line.length > CONVERSATION_NAME_MAX ? `${line.slice(0, CONVERSATION_NAME_MAX - 1)}…` : line;
}

// The next free message id of a conversation (ids are numbers counted from FIRST_MESSAGE_ID).
export function nextMessageId(messages: ChatMessage[]): number {
  return messages.reduce((n, m) => Math.max(n, Number(m.id) + 1 || 0), FIRST_MESSAGE_ID);
}
