// The providers with embeddings and rerank (docs/providers.md): Cohere's v2 API, Jina (no
// chat), Cloudflare Workers AI (OpenAI's wire under the account), Xinference and SiliconFlow's
// rerank. Each mock refuses a request without the channel's key, as the provider does.
import type http from "node:http";
import { openaiChatAnswer } from "./openai-hosts";
import { WIRE_TEXT, WIRE_USAGE, type ProviderWire, type WireRequest } from "./types";

const send = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

/** Tokens every rerank answer that counts them reports (Jina, SiliconFlow, Xinference). */
export const RERANK_TOKENS = 23;
/** Tokens every embeddings answer reports. */
export const EMBED_TOKENS = WIRE_USAGE.prompt;
/** The vector every embeddings mock answers for each input (its index in the last place). */
export const VECTOR = [0.25, -0.5];

function scores(req: WireRequest) {
  const docs: unknown[] = Array.isArray(req.json?.documents) ? req.json.documents : [];
  const all = docs.map((_, index) => ({ index, relevance_score: 1 / (index + 1) }));
  const top = typeof req.json?.top_n === "number" ? req.json.top_n : all.length;
  return all.slice(0, top);
}

// ---- Cohere v2 ----

export const COHERE_KEY = "co-wire-key-0123456789abcdef";

function cohereChat(req: WireRequest, res: http.ServerResponse): void {
  // billed units are what Cohere charges; `tokens` adds the prompt template (the adapter bills the former)
  const usage = {
    billed_units: { input_tokens: WIRE_USAGE.prompt, output_tokens: WIRE_USAGE.completion },
    tokens: { input_tokens: WIRE_USAGE.prompt + 200, output_tokens: WIRE_USAGE.completion + 1 },
  };
  if (!Array.isArray(req.json?.messages) || typeof req.json?.model !== "string")
    return send(res, 400, { id: "e1", message: "invalid request: messages required" });
  if (!req.json.stream) {
    return send(res, 200, {
      id: "co-wire",
      finish_reason: "COMPLETE",
      message: { role: "assistant", content: [{ type: "text", text: WIRE_TEXT }] },
      usage,
    });
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const ev = (o: Record<string, unknown>) => res.write(`event: ${String(o.type)}\ndata: ${JSON.stringify(o)}\n\n`);
  ev({ id: "co-wire", type: "message-start", delta: { message: { role: "assistant", content: [], tool_plan: "", tool_calls: [], citations: [] } } });
  ev({ type: "content-start", index: 0, delta: { message: { content: { type: "text", text: "" } } } });
  for (const piece of WIRE_TEXT.split(/(?= )/)) ev({ type: "content-delta", index: 0, delta: { message: { content: { text: piece } } } });
  ev({ type: "content-end", index: 0 });
  ev({ type: "message-end", delta: { finish_reason: "COMPLETE", usage } });
  res.end();
}

function cohereEmbed(req: WireRequest, res: http.ServerResponse): void {
  const texts = req.json?.texts;
  if (!Array.isArray(texts) || !req.json?.input_type) return send(res, 400, { id: "e2", message: "invalid request: texts and input_type are required" });
  send(res, 200, {
    id: "emb-wire",
    embeddings: { float: texts.map((_: unknown, i: number) => [...VECTOR, i]) },
    texts,
    meta: { api_version: { version: "2" }, billed_units: { input_tokens: EMBED_TOKENS } },
  });
}

function cohereRerank(req: WireRequest, res: http.ServerResponse): void {
  if (typeof req.json?.query !== "string" || !Array.isArray(req.json?.documents))
    return send(res, 400, { id: "e3", message: "invalid request: query and documents are required" });
  // Cohere bills rerank in search units only: no tokens in the answer
  send(res, 200, { id: "rr-wire", results: scores(req), meta: { api_version: { version: "2" }, billed_units: { search_units: 1 } } });
}

export const cohereWire: ProviderWire = {
  type: 34,
  label: "cohere",
  model: "command-r-08-2024",
  channel: (url) => ({ key: COHERE_KEY, base_url: url }),
  handle(req, res) {
    if (req.headers.authorization !== `Bearer ${COHERE_KEY}`) return send(res, 401, { id: "e0", message: "invalid api token" });
    if (req.method === "POST" && req.url === "/v2/chat") return cohereChat(req, res);
    if (req.method === "POST" && req.url === "/v2/embed") return cohereEmbed(req, res);
    if (req.method === "POST" && req.url === "/v2/rerank") return cohereRerank(req, res);
    if (req.method === "GET" && req.url.startsWith("/v1/models")) return send(res, 200, { models: [{ name: "command-r-08-2024" }, { name: "rerank-v3.5" }] });
    send(res, 404, { id: "e4", message: `no route ${req.url}` });
  },
  check(reqs, stream) {
    const last = reqs[reqs.length - 1];
    if (last.url !== "/v2/chat") throw new Error(`cohere: expected /v2/chat, got ${last.url}`);
    if (last.json.messages?.[0]?.role !== "user" || last.json.messages[0].content !== "hi")
      throw new Error(`cohere: unexpected messages ${JSON.stringify(last.json.messages)}`);
    if ((last.json.stream === true) !== stream) throw new Error(`cohere: stream flag ${last.json.stream}`);
  },
};

// ---- Jina: embeddings and rerank, no chat ----

export const JINA_KEY = "jina_wirekey0123456789abcdef";

export const jinaWire: ProviderWire = {
  type: 38,
  label: "jina",
  model: "jina-embeddings-v3",
  kind: "embeddings",
  channel: (url) => ({ key: JINA_KEY, base_url: url }),
  handle(req, res) {
    if (req.headers.authorization !== `Bearer ${JINA_KEY}`) return send(res, 401, { detail: "Invalid API key" });
    if (req.method === "POST" && req.url === "/v1/embeddings") {
      const input = req.json?.input;
      const texts: unknown[] = typeof input === "string" ? [input] : Array.isArray(input) ? input : [];
      if (!texts.length) return send(res, 422, { detail: "input is required" });
      return send(res, 200, {
        model: req.json.model,
        object: "list",
        usage: { total_tokens: EMBED_TOKENS, prompt_tokens: EMBED_TOKENS },
        data: texts.map((_, index) => ({ object: "embedding", index, embedding: [...VECTOR, index] })),
      });
    }
    if (req.method === "POST" && req.url === "/v1/rerank") {
      if (typeof req.json?.query !== "string" || !Array.isArray(req.json?.documents)) return send(res, 422, { detail: "query and documents are required" });
      return send(res, 200, { model: req.json.model, usage: { total_tokens: RERANK_TOKENS }, results: scores(req) });
    }
    send(res, 404, { detail: "Not Found" });
  },
  check(reqs) {
    const last = reqs[reqs.length - 1];
    if (last.url !== "/v1/embeddings") throw new Error(`jina: expected /v1/embeddings, got ${last.url}`);
  },
};

// ---- Cloudflare Workers AI: OpenAI's chat completions under the account ----

export const CLOUDFLARE_ACCOUNT = "0123456789abcdef0123456789abcdef";
export const CLOUDFLARE_TOKEN = "cf-wire-token-0123456789";

export const cloudflareWire: ProviderWire = {
  type: 39,
  label: "cloudflare",
  model: "@cf/meta/llama-3.1-8b-instruct",
  channel: (url) => ({ key: CLOUDFLARE_TOKEN, base_url: url, other: CLOUDFLARE_ACCOUNT }),
  handle(req, res) {
    if (req.headers.authorization !== `Bearer ${CLOUDFLARE_TOKEN}`)
      return send(res, 401, { success: false, errors: [{ code: 10000, message: "Authentication error" }], messages: [], result: null });
    if (req.method === "POST" && req.url === `/client/v4/accounts/${CLOUDFLARE_ACCOUNT}/ai/v1/chat/completions`) return openaiChatAnswer(req, res);
    send(res, 404, { success: false, errors: [{ code: 7003, message: "No route for that URI" }], messages: [], result: null });
  },
};

// ---- Xinference (self-hosted): OpenAI's wire and a Cohere-like /v1/rerank ----

export const XINFERENCE_KEY = "xinf-wire-key-0123456789";

export const xinferenceWire: ProviderWire = {
  type: 47,
  label: "xinference",
  model: "qwen2.5-instruct",
  channel: (url) => ({ key: XINFERENCE_KEY, base_url: url }),
  handle(req, res) {
    if (req.headers.authorization !== `Bearer ${XINFERENCE_KEY}`) return send(res, 401, { detail: "Invalid credential" });
    if (req.method === "POST" && req.url === "/v1/chat/completions") return openaiChatAnswer(req, res);
    if (req.method === "POST" && req.url === "/v1/rerank") {
      if (typeof req.json?.query !== "string" || !Array.isArray(req.json?.documents)) return send(res, 400, { detail: "query and documents are required" });
      // Xinference fills meta.tokens only when asked (return_len)
      const tokens = req.json.return_len ? { input_tokens: RERANK_TOKENS, output_tokens: 0 } : null;
      return send(res, 200, { id: "xr-wire", results: scores(req), meta: { api_version: null, billed_units: null, tokens, warnings: null } });
    }
    send(res, 404, { detail: "Not Found" });
  },
};

// ---- SiliconFlow's rerank (its chat is the OpenAI host wire) ----

export const SILICONFLOW_KEY = "sk-sfwire0123456789abcdef";

/** SiliconFlow's /v1/rerank: Cohere's answer shape, tokens in meta. */
export function siliconflowRerank(req: WireRequest, res: http.ServerResponse): void {
  if (req.headers.authorization !== `Bearer ${SILICONFLOW_KEY}`) return send(res, 401, { code: 20002, message: "Invalid token", data: null });
  if (req.method !== "POST" || req.url !== "/v1/rerank") return send(res, 404, { code: 20003, message: "not found", data: null });
  if (typeof req.json?.query !== "string" || !Array.isArray(req.json?.documents))
    return send(res, 400, { code: 20015, message: "query and documents are required", data: null });
  send(res, 200, {
    id: "sf-wire",
    results: scores(req),
    meta: {
      billed_units: { input_tokens: RERANK_TOKENS, output_tokens: 0, search_units: 0, classifications: 0 },
      tokens: { input_tokens: RERANK_TOKENS, output_tokens: 0 },
    },
  });
}

export const RERANK_FAMILY_WIRES: ProviderWire[] = [cohereWire, jinaWire, cloudflareWire, xinferenceWire];
