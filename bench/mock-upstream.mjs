// A minimal, fast OpenAI-compatible upstream for the relay benchmark (node:http, no
// artificial delay, no dependencies). It answers:
//   POST /v1/chat/completions   a fixed small completion with usage; with "stream": true an
//                               SSE stream of a few chunks, a usage chunk when
//                               stream_options.include_usage is set, then data: [DONE]
//   GET  /v1/models             a fixed model list
// Any bearer key is accepted. Usage: PORT=0 HOST=127.0.0.1 node bench/mock-upstream.mjs
// It prints "mock-upstream listening on <port>" once ready (PORT=0 picks a free port).
import http from "node:http";

const PROMPT_TOKENS = 12;
const COMPLETION_TOKENS = 6;
const CONTENT = ["Hello", " from", " the", " mock", " upstream", "."];

let served = 0;

function completion(model) {
  return JSON.stringify({
    id: "chatcmpl-bench",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content: CONTENT.join("") }, finish_reason: "stop", logprobs: null }],
    usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: COMPLETION_TOKENS, total_tokens: PROMPT_TOKENS + COMPLETION_TOKENS },
  });
}

function chunk(model, created, delta, finish) {
  return `data: ${JSON.stringify({
    id: "chatcmpl-bench",
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  })}\n\n`;
}

function stream(res, model, includeUsage) {
  const created = Math.floor(Date.now() / 1000);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.write(chunk(model, created, { role: "assistant", content: "" }, null));
  for (const piece of CONTENT) res.write(chunk(model, created, { content: piece }, null));
  res.write(chunk(model, created, {}, "stop"));
  if (includeUsage) {
    res.write(
      `data: ${JSON.stringify({
        id: "chatcmpl-bench",
        object: "chat.completion.chunk",
        created,
        model,
        choices: [],
        usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: COMPLETION_TOKENS, total_tokens: PROMPT_TOKENS + COMPLETION_TOKENS },
      })}\n\n`,
    );
  }
  res.end("data: [DONE]\n\n");
}

function json(res, status, body) {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

const MODELS = JSON.stringify({
  object: "list",
  data: ["gpt-bench", "gpt-4o-mini"].map((id) => ({ id, object: "model", created: 1700000000, owned_by: "bench" })),
});

export function createMockUpstream() {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/v1/models") return json(res, 200, MODELS);
    if (req.method === "GET" && path === "/stats") return json(res, 200, JSON.stringify({ served }));
    if (req.method !== "POST" || path !== "/v1/chat/completions") {
      return json(res, 404, JSON.stringify({ error: { message: "not found", type: "invalid_request_error" } }));
    }
    const parts = [];
    req.on("data", (d) => parts.push(d));
    req.on("end", () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(parts).toString("utf8"));
      } catch {
        return json(res, 400, JSON.stringify({ error: { message: "invalid JSON body", type: "invalid_request_error" } }));
      }
      served++;
      const model = typeof body.model === "string" ? body.model : "gpt-bench";
      if (body.stream === true) return stream(res, model, body.stream_options?.include_usage === true);
      json(res, 200, completion(model));
    });
  });
  // Keep connections open longer than any client's idle pool, so that a pooled socket is
  // never closed under a request (which would show up as a spurious error).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = createMockUpstream();
  const host = process.env.HOST ?? "127.0.0.1";
  server.listen(Number(process.env.PORT ?? 0), host, () => {
    console.log(`mock-upstream listening on ${server.address().port}`);
  });
  // Nothing to flush: exit at once (open keep-alive sockets would hold close() forever).
  process.on("SIGTERM", () => process.exit(0));
  process.on("SIGINT", () => process.exit(0));
}
