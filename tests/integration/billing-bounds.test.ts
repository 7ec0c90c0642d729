// Money bounds and settlement safety, end to end: the real server, a real local upstream that
// answers whatever usage the test tells it to, and the database made to fail for real (a
// trigger that raises on the settlement's statement). Bounds: lib/billing/bounds.ts.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { execDb, queryDb } from "../support/db";
import { startServer, type TestServer } from "../support/server";
import { DEFAULT_OUTPUT_BOUND, MAX_USAGE_TOKENS, PROMPT_BOUND_BASE, PROMPT_TOKENS_PER_BYTE } from "@/lib/billing/bounds";

let server: TestServer;
let root: ApiClient;
let user: { id: number; client: ApiClient };
let key: string;
let upstream: http.Server;
let upstreamUrl: string;
// what the upstream reports as usage in its next answers (raw JSON text, so 1e20 stays 1e20);
// the Anthropic wire's usage when it answers /v1/messages
let usageJson = "";
let anthropicUsageJson = "";
// the body of the upstream's last request, as it arrived
let lastBody: Record<string, unknown> = {};

const START_QUOTA = 100_000_000;
const NORMAL_USAGE = '{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}';
const NORMAL_ANTHROPIC_USAGE = '{"input_tokens":10,"output_tokens":5}';

// The prompt bound of a call whose body has these bytes (lib/relay/call-bounds.ts).
const promptBoundOf = (body: string) => PROMPT_BOUND_BASE + PROMPT_TOKENS_PER_BYTE * Buffer.byteLength(body);

// Anthropic's Messages wire, whole or streamed, with the usage the test chose.
function answerAnthropic(j: Record<string, unknown>, res: http.ServerResponse): void {
  const model = JSON.stringify(j.model ?? "");
  if (j.stream) {
    const ev = (name: string, data: string) => `event: ${name}\ndata: ${data}\n\n`;
    const u = JSON.parse(anthropicUsageJson) as { input_tokens?: unknown; output_tokens?: unknown };
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(
      ev(
        "message_start",
        `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":${model},"content":[],"stop_reason":null,"usage":{"input_tokens":${JSON.stringify(u.input_tokens ?? 0)},"output_tokens":1}}}`,
      ) +
        ev("content_block_start", '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}') +
        ev("content_block_delta", '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}') +
        ev("content_block_stop", '{"type":"content_block_stop","index":0}') +
        ev(
          "message_delta",
          `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":${JSON.stringify(u.output_tokens ?? 0)}}}`,
        ) +
        ev("message_stop", '{"type":"message_stop"}'),
    );
    return;
  }
  const text = `{"id":"msg_1","type":"message","role":"assistant","model":${model},"content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":${anthropicUsageJson}}`;
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function startUpstream(): Promise<void> {
  upstream = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const j = JSON.parse(body || "{}");
      lastBody = j;
      if (req.url?.startsWith("/v1/messages")) return answerAnthropic(j, res);
      if (req.url?.startsWith("/v1/responses")) {
        // the Responses API, whole answers: the usage the test chose, in the Responses names
        const u = JSON.parse(usageJson) as { prompt_tokens: number; completion_tokens: number };
        const text = JSON.stringify({
          id: "resp_1",
          object: "response",
          created_at: 1700000000,
          status: "completed",
          model: j.model,
          output: [{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "hi", annotations: [] }] }],
          usage: { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens, total_tokens: u.prompt_tokens + u.completion_tokens },
        });
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
        res.end(text);
        return;
      }
      if (j.stream) {
        const chunk = (delta: string, tail: string) =>
          `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":${JSON.stringify(j.model ?? "")},"choices":${delta}${tail}}\n\n`;
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(chunk('[{"index":0,"delta":{"role":"assistant","content":"hi"},"finish_reason":null}]', ""));
        res.write(chunk('[{"index":0,"delta":{},"finish_reason":"stop"}]', ""));
        res.end(chunk("[]", `,"usage":${usageJson}`) + "data: [DONE]\n\n");
        return;
      }
      const text =
        `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":${JSON.stringify(j.model ?? "")},` +
        `"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":${usageJson}}`;
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    });
  });
  return new Promise((resolve) =>
    upstream.listen(0, "127.0.0.1", () => {
      upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

async function quota(): Promise<number> {
  return (await user.client.get<{ quota: number }>("/api/user/self")).data.quota;
}

async function ledgerSum(): Promise<bigint> {
  const rows = await queryDb<{ delta: unknown }>(server, 'SELECT "delta" FROM "quota_ledger" WHERE "user_id" = $1', [user.id]);
  return rows.reduce((s, r) => s + BigInt(String(r.delta)), 0n);
}

const chatBody = (model: string) => JSON.stringify({ model, messages: [{ role: "user", content: "hello" }] });
async function chat(model: string): Promise<Response> {
  return post("/v1/chat/completions", chatBody(model));
}
function post(path: string, body: string): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });
}

type LogRow = {
  id: number;
  type: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  content: string;
  other: string;
  request_id?: string;
  model_name: string;
};
async function logsOf(type: number, model: string, n: number): Promise<LogRow[]> {
  for (let i = 0; i < 60; i++) {
    const r = await root.get<{ items: LogRow[] }>(`/api/log/?p=1&page_size=20&type=${type}&model_name=${model}`);
    if (r.data.items.length >= n) return r.data.items;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`no ${type} log for ${model}`);
}

beforeAll(async () => {
  server = await startServer();
  await startUpstream();
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify({
      "bounded-model": 1,
      "failing-model": 1,
      "gpt-4o-mini": 1,
      "budget-model": 1,
      "claude-bounded": 1,
      "claude-bounded-thinking": 1,
      "zero-budget": 1,
      "responses-model": 1,
    }),
    CompletionRatio: JSON.stringify({ "responses-model": 1, "bounded-model": 1, "failing-model": 1, "budget-model": 1, "claude-bounded": 1, "zero-budget": 1 }),
  });
  const ch = await root.post("/api/channel/", {
    name: "absurd",
    type: 1,
    key: "sk-upstream",
    base_url: upstreamUrl,
    models: "bounded-model,failing-model,gpt-4o-mini,budget-model,zero-budget,responses-model",
    group: "default",
  });
  expect(ch.success, ch.message).toBe(true);
  const claude = await root.post("/api/channel/", {
    name: "absurd-claude",
    type: 14,
    key: "sk-ant-upstream",
    base_url: upstreamUrl,
    models: "claude-bounded,claude-bounded-thinking",
    group: "default",
  });
  expect(claude.success, claude.message).toBe(true);
  user = await makeUser(server, root, "payer");
  expect((await root.put("/api/user/", { id: user.id, quota: START_QUOTA })).success).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: "bounded", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  key = t.data[0].key;
});

afterAll(async () => {
  await server?.stop();
  await new Promise((r) => upstream?.close(r));
});

beforeEach(() => {
  usageJson = NORMAL_USAGE;
  anthropicUsageJson = NORMAL_ANTHROPIC_USAGE;
});

describe("usage from the upstream is bounded", () => {
  it("charges at most the call's bounds for absurd usage, flags the row, and keeps the ledger equal to the balance", async () => {
    // no max_tokens: the completion bound is the default; the prompt bound follows the body's size
    const promptMax = promptBoundOf(chatBody("bounded-model"));
    for (const [prompt, completion] of [
      ["1e15", "3"],
      ["1e20", "1e20"],
      ["1e400", "-7"],
    ]) {
      usageJson = `{"prompt_tokens":${prompt},"completion_tokens":${completion},"prompt_tokens_details":{"cached_tokens":1e30},"completion_tokens_details":{"reasoning_tokens":1e30}}`;
      const before = await quota();
      const r = await chat("bounded-model");
      expect(r.status).toBe(200);
      await r.json();
      const spent = before - (await quota());
      // JSON reads 1e400 as Infinity, which is no usage figure: counted 0
      const p = Number.isFinite(Number(prompt)) ? Math.min(Number(prompt), promptMax) : 0;
      const c = Math.min(Math.max(0, Number(completion)), DEFAULT_OUTPUT_BOUND);
      // ratio 1, completion ratio 1, cached tokens (bounded, then at most the prompt) at cache ratio 1
      expect(spent).toBe(p + c);
      expect(await ledgerSum()).toBe(BigInt(await quota()));
    }
    const rows = await logsOf(2, "bounded-model", 3);
    for (const row of rows) {
      expect(row.prompt_tokens).toBeLessThanOrEqual(promptMax);
      expect(row.completion_tokens).toBeLessThanOrEqual(DEFAULT_OUTPUT_BOUND);
      expect(JSON.parse(row.other).usage_bounded).toBe(true); // the cached 1e30 at least was cut
      expect(JSON.parse(row.other).cache_tokens).toBeLessThanOrEqual(promptMax);
    }
    expect(rows.map((r) => r.quota).sort((a, b) => a - b)).toEqual([0, promptMax + 3, promptMax + DEFAULT_OUTPUT_BOUND]);
    expect(promptMax + DEFAULT_OUTPUT_BOUND).toBeLessThan(MAX_USAGE_TOKENS);
  });

  it("bounds the usage of a stream and of a pass-through answer the same way", async () => {
    usageJson = '{"prompt_tokens":1e18,"completion_tokens":2,"total_tokens":1e18}';
    const calls: Array<[string, string]> = [
      ["/v1/chat/completions", '{"model":"bounded-model","stream":true,"messages":[{"role":"user","content":"hi"}]}'],
      ["/v1/completions", '{"model":"bounded-model","prompt":"hi"}'],
    ];
    for (const [path, body] of calls) {
      const before = await quota();
      const r = await post(path, body);
      expect(r.status, path).toBe(200);
      await r.text();
      expect(before - (await quota()), path).toBe(promptBoundOf(body) + 2);
    }
    const rows = await logsOf(2, "bounded-model", 5);
    for (const [i, row] of rows.slice(0, 2).entries()) {
      const body = calls[1 - i][1]; // newest first
      expect(row.quota).toBe(promptBoundOf(body) + 2);
      expect(row.prompt_tokens).toBe(promptBoundOf(body));
      expect(JSON.parse(row.other).usage_bounded).toBe(true);
    }
    expect(await ledgerSum()).toBe(BigInt(await quota()));
  });

  it("bills at most max_tokens completion tokens of a small call whose upstream reports 1e7 (OpenAI's wire, whole and streamed)", async () => {
    usageJson = '{"prompt_tokens":12,"completion_tokens":10000000,"total_tokens":10000012}';
    for (const stream of [false, true]) {
      const before = await quota();
      const r = await post(
        "/v1/chat/completions",
        JSON.stringify({ model: "budget-model", max_tokens: 50, stream, messages: [{ role: "user", content: "hi" }] }),
      );
      expect(r.status).toBe(200);
      await r.text();
      expect(before - (await quota()), `stream ${stream}`).toBe(12 + 50);
    }
    // the pass-through route bounds by its own field, times n
    const before = await quota();
    const r = await post("/v1/completions", '{"model":"budget-model","prompt":"hi","max_tokens":50,"n":2}');
    expect(r.status).toBe(200);
    await r.text();
    expect(before - (await quota())).toBe(12 + 100);
    const rows = await logsOf(2, "budget-model", 3);
    expect(rows.map((row) => row.completion_tokens).sort((a, b) => a - b)).toEqual([50, 50, 100]);
    for (const row of rows) expect(JSON.parse(row.other).usage_bounded).toBe(true);
    expect(await ledgerSum()).toBe(BigInt(await quota()));
  });

  it("bills at most max_tokens on Anthropic's wire, and the prompt by the request's size", async () => {
    anthropicUsageJson = '{"input_tokens":10000000,"output_tokens":10000000}';
    const bodies = [false, true].map((stream) =>
      JSON.stringify({ model: "claude-bounded", max_tokens: 50, stream, messages: [{ role: "user", content: "hi" }] }),
    );
    for (const body of bodies) {
      const before = await quota();
      const r = await post("/v1/messages", body);
      expect(r.status).toBe(200);
      await r.text();
      expect(lastBody.max_tokens).toBe(50);
      expect(before - (await quota()), body).toBe(promptBoundOf(body) + 50);
    }
    const rows = await logsOf(2, "claude-bounded", 2);
    for (const [i, row] of rows.entries()) {
      expect(row.completion_tokens).toBe(50);
      expect(row.prompt_tokens).toBe(promptBoundOf(bodies[1 - i]));
      expect(JSON.parse(row.other).usage_bounded).toBe(true);
    }
    // with the thinking adapter, the wire was sent 50 + Anthropic's minimum budget of 1024: that many are billed
    await setOptions(root, { "claude.thinking_adapter_enabled": "true" });
    try {
      const before = await quota();
      const r = await post("/v1/messages", JSON.stringify({ model: "claude-bounded-thinking", max_tokens: 50, messages: [{ role: "user", content: "hi" }] }));
      expect(r.status).toBe(200);
      await r.text();
      expect(lastBody.max_tokens).toBe(1074);
      expect(before - (await quota())).toBe(
        promptBoundOf(JSON.stringify({ model: "claude-bounded-thinking", max_tokens: 50, messages: [{ role: "user", content: "hi" }] })) + 1074,
      );
    } finally {
      await setOptions(root, { "claude.thinking_adapter_enabled": "false" });
    }
    expect(await ledgerSum()).toBe(BigInt(await quota()));
  });

  it("does not bound a Responses call's prompt by its body's size: it may name a prompt stored upstream", async () => {
    usageJson = '{"prompt_tokens":5000000,"completion_tokens":2}';
    const before = await quota();
    const r = await post("/v1/responses", '{"model":"responses-model","input":"go on","previous_response_id":"resp_0"}');
    expect(r.status).toBe(200);
    await r.text();
    expect(lastBody.previous_response_id).toBe("resp_0");
    expect(before - (await quota())).toBe(5_000_002);
    const rows = await logsOf(2, "responses-model", 1);
    expect(rows[0].prompt_tokens).toBe(5_000_000);
    expect(JSON.parse(rows[0].other).usage_bounded).toBeUndefined();
  });

  it("bounds a Responses call's prompt by its body when it names nothing stored upstream", async () => {
    usageJson = '{"prompt_tokens":5000000,"completion_tokens":2}';
    const body = '{"model":"responses-model","input":"hi"}';
    const before = await quota();
    const r = await post("/v1/responses", body);
    expect(r.status).toBe(200);
    await r.text();
    expect(before - (await quota())).toBe(promptBoundOf(body) + 2);
    const rows = await logsOf(2, "responses-model", 2); // the previous test's row is the other
    expect(rows[0].prompt_tokens).toBe(promptBoundOf(body));
    expect(JSON.parse(rows[0].other).usage_bounded).toBe(true);
  });

  it("does not flag a call whose usage is within the bounds", async () => {
    const before = await quota();
    const r = await chat("gpt-4o-mini");
    expect(r.status).toBe(200);
    await r.json();
    const rows = await logsOf(2, "gpt-4o-mini", 1);
    expect(JSON.parse(rows[0].other).usage_bounded).toBeUndefined();
    expect(before - (await quota())).toBe(rows[0].quota);
  });
});

describe("the numeric parameters of a pass-through body", () => {
  it("answer 400 naming the field on /v1/completions, before anything is reserved", async () => {
    const before = await quota();
    const cases: Array<[string, string]> = [
      ['{"model":"gpt-4o-mini","prompt":"hi","n":1e20}', "n"],
      ['{"model":"gpt-4o-mini","prompt":"hi","n":"x"}', "n"],
      ['{"model":"gpt-4o-mini","prompt":"hi","max_tokens":-1}', "max_tokens"],
      ['{"model":"gpt-4o-mini","input":"hi","max_output_tokens":"x"}', "max_output_tokens"],
    ];
    for (const [body, field] of cases) {
      const r = await post("/v1/completions", body);
      expect(r.status, body).toBe(400);
      const j = (await r.json()) as { error: { message: string; type: string } };
      expect(j.error.type).toBe("invalid_request_error");
      expect(j.error.message, body).toContain(`: ${field}: `);
    }
    expect(await quota()).toBe(before);
  });

  it("answer 400 naming the field on the other JSON pass-through routes", async () => {
    const before = await quota();
    const cases: Array<[string, string, string]> = [
      ["/v1/images/generations", '{"model":"gpt-4o-mini","prompt":"a cat","n":1e20}', "n"],
      ["/v1/embeddings", '{"model":"gpt-4o-mini","input":"hi","dimensions":"x"}', "dimensions"],
      ["/v1/rerank", '{"model":"gpt-4o-mini","query":"q","documents":["a"],"top_n":-1}', "top_n"],
      ["/v1/moderations", '{"model":"gpt-4o-mini","input":"hi","temperature":9}', "temperature"],
    ];
    for (const [path, body, field] of cases) {
      const r = await post(path, body);
      expect(r.status, body).toBe(400);
      const j = (await r.json()) as { error: { message: string; type: string } };
      expect(j.error.type).toBe("invalid_request_error");
      expect(j.error.message, body).toContain(`: ${field}: `);
    }
    expect(await quota()).toBe(before);
  });

  it("leave a valid body as the client wrote it (but for the model)", async () => {
    const body = { model: "gpt-4o-mini", prompt: "hi", n: 2, max_tokens: 16, temperature: 0.5, best_of: 3, logit_bias: { "50256": -100 }, user: "u1" };
    const r = await post("/v1/completions", JSON.stringify(body));
    expect(r.status).toBe(200);
    await r.text();
    expect(lastBody).toEqual(body);
  });
});

describe("max_tokens 0 means not set", () => {
  it("is not forwarded and does not bound the usage billed", async () => {
    usageJson = '{"prompt_tokens":4,"completion_tokens":1000,"total_tokens":1004}';
    const calls: Array<[string, string]> = [
      ["/v1/completions", '{"model":"zero-budget","prompt":"hi","max_tokens":0}'],
      ["/v1/chat/completions", '{"model":"zero-budget","max_tokens":0,"max_completion_tokens":0,"messages":[{"role":"user","content":"hi"}]}'],
      ["/v1/chat/completions", '{"model":"zero-budget","max_tokens":0,"stream":true,"messages":[{"role":"user","content":"hi"}]}'],
    ];
    for (const [path, body] of calls) {
      const before = await quota();
      const r = await post(path, body);
      expect(r.status, body).toBe(200);
      await r.text();
      expect(lastBody, body).not.toHaveProperty("max_tokens");
      expect(lastBody, body).not.toHaveProperty("max_completion_tokens");
      expect(before - (await quota()), body).toBe(1004);
    }
    const rows = await logsOf(2, "zero-budget", 3);
    for (const row of rows) {
      expect(row.completion_tokens).toBe(1000);
      expect(JSON.parse(row.other).usage_bounded).toBeUndefined();
    }
  });
});

describe("a settlement that fails", () => {
  it("is retried, then refunds the reservation exactly once and writes an error log row", async () => {
    // The settlement is the only statement that counts a request: make the database refuse it.
    if (server.dbKind === "postgresql") {
      await execDb(
        server,
        `CREATE FUNCTION refuse_settlement() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'settlement refused by the test'; END $$ LANGUAGE plpgsql`,
      );
      await execDb(
        server,
        `CREATE TRIGGER refuse_settlement BEFORE UPDATE OF "request_count" ON "users" FOR EACH ROW WHEN (NEW."id" = ${user.id}) EXECUTE FUNCTION refuse_settlement()`,
      );
    } else {
      await execDb(
        server,
        `CREATE TRIGGER refuse_settlement BEFORE UPDATE OF "request_count" ON "users" WHEN NEW."id" = ${user.id} BEGIN SELECT RAISE(ABORT, 'settlement refused by the test'); END`,
      );
    }
    const before = await quota();
    const ledgerRows = (await queryDb(server, 'SELECT "id" FROM "quota_ledger" WHERE "user_id" = $1', [user.id])).length;
    try {
      const r = await chat("failing-model");
      expect(r.status).toBe(200); // the client has its answer; billing is the gateway's problem
      await r.json();
      const rows = await logsOf(6, "failing-model", 1);
      expect(rows).toHaveLength(1);
      expect(rows[0].quota).toBe(0);
      expect(rows[0].content).toMatch(/not charged/);
      expect(JSON.parse(rows[0].other)).toMatchObject({ error_type: "billing_error", error_code: "settlement_failed" });
      expect(await quota()).toBe(before);
      // one reservation, one refund, no settlement: the ledger still sums to the balance
      const kinds = await queryDb<{ kind: string; delta: unknown }>(server, 'SELECT "kind", "delta" FROM "quota_ledger" WHERE "user_id" = $1 ORDER BY "id"', [
        user.id,
      ]);
      const added = kinds.slice(ledgerRows).map((k) => k.kind);
      expect(added).toEqual(["relay_reserve", "relay_refund"]);
      expect(await ledgerSum()).toBe(BigInt(await quota()));
      expect((await logsOf(2, "failing-model", 0)).length).toBe(0);
    } finally {
      await execDb(server, server.dbKind === "postgresql" ? 'DROP TRIGGER refuse_settlement ON "users"' : "DROP TRIGGER refuse_settlement");
    }
    // the store works again: the next call is charged as usual
    const b = await quota();
    const r = await chat("failing-model");
    expect(r.status).toBe(200);
    await r.json();
    expect(b - (await quota())).toBe(15);
  });
});

describe("budgets and console fields beyond the 64-bit range", () => {
  it("answers 400 naming the parameter for max_tokens >= 1e20 on the pass-through routes", async () => {
    const cases: Array<[string, string, string]> = [
      ["/v1/completions", '{"model":"gpt-4o-mini","prompt":"hi","max_tokens":1e20}', "max_tokens"],
      ["/v1/responses", '{"model":"gpt-4o-mini","input":"hi","max_output_tokens":1e20}', "max_output_tokens"],
      ["/v1/responses", '{"model":"gpt-4o-mini","input":"hi","max_output_tokens":1e400}', "max_output_tokens"],
      ["/v1/chat/completions", '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"max_tokens":1e20}', "max_tokens"],
    ];
    const before = await quota();
    for (const [path, body, param] of cases) {
      const r = await fetch(`${server.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });
      expect(r.status, `${path} ${body}`).toBe(400);
      const j = (await r.json()) as { error: { message: string; type: string } };
      expect(j.error.type).toBe("invalid_request_error");
      expect(j.error.message).toContain(param);
    }
    expect(await quota()).toBe(before);
  });

  it("refuses a token's remain_quota or expired_time outside the safe integers, naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "x", remain_quota: 1e20 }, "remain_quota"],
      [{ name: "x", remain_quota: "99999999999999999999999" }, "remain_quota"],
      [{ name: "x", remain_quota: 1e300 }, "remain_quota"],
      [{ name: "x", expired_time: 1e20 }, "expired_time"],
      [{ name: "x", expired_time: "1e20" }, "expired_time"],
    ];
    for (const [body, field] of cases) {
      const r = await user.client.post("/api/token/", body);
      expect(r.success, JSON.stringify(body)).toBe(false);
      expect(r.message, JSON.stringify(body)).toContain(field);
    }
    const [t] = (await user.client.post<{ id: number }[]>("/api/token/", { name: "edit", remain_quota: 10 })).data;
    const r = await user.client.put("/api/token/", { id: t.id, remain_quota: 1e20, expired_time: -1 });
    expect(r.success).toBe(false);
    expect(r.message).toContain("remain_quota");
    const u = await user.client.put("/api/token/", { id: t.id, expired_time: 1e20 });
    expect(u.success).toBe(false);
    expect(u.message).toContain("expired_time");
    const ok = await user.client.put("/api/token/", { id: t.id, remain_quota: Number.MAX_SAFE_INTEGER });
    expect(ok.success, ok.message).toBe(true);
  });
});
