// An OpenAI-wire upstream for the usage-limit tests (tests/integration/usage-limits.test.ts,
// three-nodes.test.ts): it answers every call with the same usage after `delayMs`, and counts
// the calls it has in flight at once (maxInFlight).
import http from "node:http";
import type { AddressInfo } from "node:net";

// the usage reported for every call: 1,000 tokens
export const PROMPT = 600;
export const COMPLETION = 400;

export type CountingUpstream = { url: string; key: string; delayMs: number; inFlight: number; maxInFlight: number; requests: number; close(): Promise<void> };

// An OpenAI-wire upstream that counts the calls it has in flight at once.
export async function startCountingUpstream(): Promise<CountingUpstream> {
  const up: CountingUpstream = { url: "", key: "sk-upstream-counting", delayMs: 0, inFlight: 0, maxInFlight: 0, requests: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      up.requests++;
      up.inFlight++;
      up.maxInFlight = Math.max(up.maxInFlight, up.inFlight);
      const model = (JSON.parse(body || "{}") as { model?: string }).model ?? "m";
      setTimeout(() => {
        up.inFlight--;
        const answer = {
          id: "chatcmpl-limits",
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
          usage: { prompt_tokens: PROMPT, completion_tokens: COMPLETION, total_tokens: PROMPT + COMPLETION },
        };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
      }, up.delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  up.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  up.close = () => new Promise((r) => server.close(() => r()));
  return up;
}
