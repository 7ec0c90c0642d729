// Pure helpers of the chat playground (docs/product-rules.md, "Relay console pages"): the
// settings' bounds, the request sent to POST /pg/chat/completions, and the reading of its
// server-sent events.
import { createParser } from "eventsource-parser";

export type ChatRole = "user" | "assistant" | "system";
export type ChatStatus = "loading" | "incomplete" | "complete" | "error";
export type ChatMessage = { id: string; role: ChatRole; content: string; createAt: number; status: ChatStatus };

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
    model: settings.model,
    group: settings.group,
    ...(settings.maxTokens > 0 ? { max_tokens: Math.floor(settings.maxTokens) } : {}),
    temperature: settings.temperature,
  };
}

// One SSE data field of the stream: more text, the end marker, or an error to show.
export type StreamStep = { kind: "delta"; text: string } | { kind: "done" } | { kind: "error"; text: string } | { kind: "skip" };

export function readStreamData(data: string): StreamStep {
  if (data.trim() === "[DONE]") return { kind: "done" };
  let j: unknown;
  try {
    j = JSON.parse(data);
  } catch {
    return { kind: "skip" };
  }
  if (!j || typeof j !== "object") return { kind: "skip" };
  const o = j as { error?: unknown; choices?: { delta?: { content?: unknown } }[] };
  if (o.error !== undefined && o.error !== null) return { kind: "error", text: errorText(o.error) };
  const text = Array.isArray(o.choices) ? o.choices[0]?.delta?.content : undefined;
  return typeof text === "string" && text ? { kind: "delta", text } : { kind: "skip" };
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
