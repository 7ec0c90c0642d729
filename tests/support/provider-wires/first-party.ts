// Azure OpenAI, Anthropic and Gemini, each on its own wire: Azure's deployment URL with the
// api-key header; Anthropic's Messages API with x-api-key and its named SSE events; Gemini's
// generateContent / streamGenerateContent?alt=sse with x-goog-api-key.
import type http from "node:http";
import { openaiChatAnswer } from "./openai-hosts";
import { WIRE_TEXT, WIRE_USAGE, type ProviderWire, type WireRequest } from "./types";

const refuse = (res: http.ServerResponse, status = 401): void =>
  void res.writeHead(status, { "content-type": "application/json" }).end('{"error":{"message":"refused"}}');
const pieces = () => WIRE_TEXT.split(/(?= )/);

const AZURE_KEY = "azure-wire-key-0123456789";
const azure: ProviderWire = {
  type: 3,
  label: "azure",
  model: "gpt-4o",
  channel: (url) => ({ key: AZURE_KEY, base_url: url, other: "2024-10-21" }),
  handle(req, res) {
    if (req.headers["api-key"] !== AZURE_KEY) return refuse(res);
    if (!req.url.startsWith("/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21")) return refuse(res, 404);
    openaiChatAnswer(req, res);
  },
};

const ANTHROPIC_KEY = "sk-ant-wire-0123456789";
const anthropic: ProviderWire = {
  type: 14,
  label: "anthropic",
  model: "claude-sonnet-4-5",
  channel: (url) => ({ key: ANTHROPIC_KEY, base_url: url }),
  handle(req: WireRequest, res) {
    if (req.headers["x-api-key"] !== ANTHROPIC_KEY || !req.headers["anthropic-version"]) return refuse(res);
    if (req.url !== "/v1/messages") return refuse(res, 404);
    const model = String(req.json?.model);
    if (!req.json?.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "msg_wire",
          type: "message",
          role: "assistant",
          model,
          content: [{ type: "text", text: WIRE_TEXT }],
          stop_reason: "end_turn",
          usage: { input_tokens: WIRE_USAGE.prompt, output_tokens: WIRE_USAGE.completion },
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const ev = (name: string, data: object) => res.write(`event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`);
    ev("message_start", {
      message: { id: "msg_wire", type: "message", role: "assistant", model, content: [], usage: { input_tokens: WIRE_USAGE.prompt, output_tokens: 1 } },
    });
    ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    for (const p of pieces()) ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: p } });
    ev("content_block_stop", { index: 0 });
    ev("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: WIRE_USAGE.completion } });
    ev("message_stop", {});
    res.end();
  },
};

const GEMINI_KEY = "AIzaWireGeminiKey0123456789";
const gemini: ProviderWire = {
  type: 24,
  label: "gemini",
  model: "gemini-2.5-flash",
  channel: (url) => ({ key: GEMINI_KEY, base_url: url }),
  handle(req, res) {
    if (req.headers["x-goog-api-key"] !== GEMINI_KEY) return refuse(res, 403);
    const usageMetadata = {
      promptTokenCount: WIRE_USAGE.prompt,
      candidatesTokenCount: WIRE_USAGE.completion,
      totalTokenCount: WIRE_USAGE.prompt + WIRE_USAGE.completion,
    };
    const chunk = (text: string, last: boolean) => ({
      candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0, ...(last ? { finishReason: "STOP" } : {}) }],
      ...(last ? { usageMetadata } : {}),
      modelVersion: "gemini-2.5-flash",
    });
    if (req.url.startsWith("/v1beta/models/gemini-2.5-flash:generateContent")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(chunk(WIRE_TEXT, true)));
      return;
    }
    if (req.url.startsWith("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse")) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const ps = pieces();
      ps.forEach((p, i) => res.write(`data: ${JSON.stringify(chunk(p, i === ps.length - 1))}\r\n\r\n`));
      res.end();
      return;
    }
    refuse(res, 404);
  },
};

export const FIRST_PARTY_WIRES: ProviderWire[] = [azure, anthropic, gemini];
