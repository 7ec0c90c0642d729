// The OpenAI-compatible hosts (OPENAI_HOSTS in lib/relay/providers/openai.ts): chat completions
// with the key as a Bearer token, SSE chunks, usage in the last chunk.
import type http from "node:http";
import { WIRE_TEXT, WIRE_USAGE, type ProviderWire, type WireRequest } from "./types";

export function openaiChatAnswer(req: WireRequest, res: http.ServerResponse): void {
  const model = String(req.json?.model ?? "");
  const usage = { prompt_tokens: WIRE_USAGE.prompt, completion_tokens: WIRE_USAGE.completion, total_tokens: WIRE_USAGE.prompt + WIRE_USAGE.completion };
  if (!req.json?.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "chatcmpl-wire",
        object: "chat.completion",
        created: 1,
        model,
        choices: [{ index: 0, message: { role: "assistant", content: WIRE_TEXT }, finish_reason: "stop" }],
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
    `data: ${JSON.stringify({ id: "chatcmpl-wire", object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  for (const piece of WIRE_TEXT.split(/(?= )/)) res.write(chunk({ content: piece }));
  res.write(chunk({}, "stop"));
  res.write(`data: ${JSON.stringify({ id: "chatcmpl-wire", object: "chat.completion.chunk", created: 1, model, choices: [], usage })}\n\n`);
  res.end("data: [DONE]\n\n");
}

/** A wire that is OpenAI's chat completions at `path` with a Bearer key. */
export function openaiWire(type: number, label: string, model: string, opts: { path?: string; key?: string; basePath?: string } = {}): ProviderWire {
  const key = opts.key ?? `key-${label}-0123456789`;
  const path = opts.path ?? "/v1/chat/completions";
  return {
    type,
    label,
    model,
    channel: (url) => ({ key, base_url: url + (opts.basePath ?? "") }),
    handle: (req, res) => {
      if (req.method !== "POST" || !req.url.startsWith(path)) {
        res.writeHead(404).end();
        return;
      }
      openaiChatAnswer(req, res);
    },
    check: (reqs) => {
      const last = reqs[reqs.length - 1];
      if (last.headers.authorization !== `Bearer ${key}`) throw new Error(`${label}: expected the key as a Bearer token, got ${last.headers.authorization}`);
    },
  };
}

export const OPENAI_HOST_WIRES: ProviderWire[] = [
  openaiWire(1, "openai", "gpt-4o-mini"),
  openaiWire(4, "ollama", "llama3.2"),
  openaiWire(8, "custom", "my-model"),
  openaiWire(20, "openrouter", "openai/gpt-4o-mini"),
  openaiWire(25, "moonshot", "moonshot-v1-8k"),
  openaiWire(27, "perplexity", "sonar", { path: "/chat/completions" }),
  openaiWire(40, "siliconflow", "Qwen/Qwen2.5-7B-Instruct"),
  openaiWire(42, "mistral", "mistral-small-latest"),
  openaiWire(43, "deepseek", "deepseek-chat"),
  openaiWire(48, "xai", "grok-3-mini"),
];
