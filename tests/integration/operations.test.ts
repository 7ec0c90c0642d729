// The operator's endpoints (docs/operations.md): /healthz, /readyz (200 while the database
// answers, 503 once it is gone) and /metrics (off without METRICS_TOKEN, bearer-protected,
// Prometheus text whose relay counter grows by exactly the calls made).
import { randomBytes } from "node:crypto";
import { renameSync } from "node:fs";
import OpenAI from "openai";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, USAGE, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";

const METRICS_TOKEN = "metrics-token-0123456789abcdef0123456789";
const MODEL = "ops-model";

let server: TestServer;
let mock: MockUpstream;
let key: string;
let root: ApiClient;

beforeAll(async () => {
  server = await startServer({ env: { METRICS_TOKEN } });
  mock = await startMockUpstream("openai");
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify({ [MODEL]: 1, "ops-retry": 1, "ops-fail": 1 }),
    CompletionRatio: JSON.stringify({ [MODEL]: 1 }),
    CacheRatio: "{}",
    RetryTimes: "2",
  });
  const c = await root.post("/api/channel/", { name: "ops", type: 1, key: mock.key, base_url: mock.url, models: MODEL, group: "default" });
  expect(c.success, c.message).toBe(true);
  const user = await makeUser(server, root, "opsuser");
  const q = await root.put("/api/user/", { id: user.id, quota: 5_000_000 });
  expect(q.success, q.message).toBe(true);
  const t = await user.client.post<{ key: string }[]>("/api/token/", { name: "ops", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  key = t.data[0].key;
});

afterAll(async () => {
  await server?.stop();
  await mock?.close();
});

// ---- a Prometheus text (format 0.0.4) reader, strict enough to fail on a malformed line

type Sample = { name: string; labels: Record<string, string>; value: number };
const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const HELP = new RegExp(`^# HELP (${NAME}) (.*)$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SAMPLE = new RegExp(
  `^(${NAME})(?:\\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\.)*",?)*)\\})? (-?(?:[0-9]+(?:\\.[0-9]*)?(?:e[+-]?[0-9]+)?|\\.[0-9]+)|NaN|\\+Inf|-Inf)(?: -?[0-9]+)?$`,
);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\.)*)"/g;

function parsePrometheus(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const helps = new Set<string>();
  const samples: Sample[] = [];
  expect(text.endsWith("\n")).toBe(true);
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("# HELP ")) {
      const m = HELP.exec(line);
      expect(m, line).not.toBeNull();
      helps.add(m![1]);
      continue;
    }
    if (line.startsWith("# TYPE ")) {
      const m = TYPE.exec(line);
      expect(m, line).not.toBeNull();
      expect(types.has(m![1]), `TYPE twice: ${line}`).toBe(false);
      types.set(m![1], m![2]);
      continue;
    }
    expect(line.startsWith("#"), `unknown comment: ${line}`).toBe(false);
    const m = SAMPLE.exec(line);
    expect(m, `not a sample line: ${line}`).not.toBeNull();
    const labels: Record<string, string> = {};
    for (const l of (m![2] ?? "").matchAll(LABEL)) labels[l[1]] = l[2].replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
    const name = m![1];
    // every sample belongs to a family declared (with its help) before it
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count|total|created)$/, "");
    expect(types.has(family), `sample without TYPE: ${line}`).toBe(true);
    expect(helps.has(family), `sample without HELP: ${line}`).toBe(true);
    if (types.get(family) === "histogram" && name !== family) expect(["_bucket", "_sum", "_count"]).toContain(name.slice(family.length));
    samples.push({ name, labels, value: Number(m![3].replace("+Inf", "Infinity")) });
  }
  return { types, samples };
}

async function scrape(): Promise<{ types: Map<string, string>; samples: Sample[] }> {
  const r = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await r.text());
}

const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((a, s) => a + s.value, 0);

describe("GET /healthz", () => {
  it("answers 200 {status: ok} while the process is alive", async () => {
    const r = await fetch(`${server.url}/healthz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: "ok" });
    expect((await fetch(`${server.url}/healthz`, { method: "HEAD" })).status).toBe(200);
    expect((await fetch(`${server.url}/healthz`, { method: "POST" })).status).toBe(405);
  });
});

describe("GET /readyz", () => {
  it("answers 200 when the database answers and every migration ran", async () => {
    const r = await fetch(`${server.url}/readyz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok", redis: "not configured" } });
  });

  // Redis in the PostgreSQL project only, as the multi-node test (SQLite is one node)
  it.skipIf(process.env.TEST_DB !== "postgresql")("checks Redis when REDIS_URL is set", async () => {
    const node = await startServer({ env: { REDIS_URL: "redis://127.0.0.1:6379", REDIS_PREFIX: `gwtest:${randomBytes(6).toString("hex")}:` } });
    try {
      const r = await fetch(`${node.url}/readyz`);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok", redis: "ok" } });
    } finally {
      await node.stop();
    }
  });

  it("answers 503 naming the database once it is gone, quickly, and 200 again once it is back", async () => {
    // a server of its own, whose database this test takes away (and without METRICS_TOKEN)
    const doomed = await startServer();
    try {
      expect((await fetch(`${doomed.url}/readyz`)).status).toBe(200);
      expect((await fetch(`${doomed.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
      const restore = await takeDatabaseAway(doomed);
      try {
        const t0 = Date.now();
        const r = await fetch(`${doomed.url}/readyz`);
        const took = Date.now() - t0;
        const body = (await r.json()) as { status: string; checks: Record<string, string>; failed: string[] };
        expect(r.status, JSON.stringify(body)).toBe(503);
        expect(body.status).toBe("unavailable");
        expect(body.failed).toContain("database");
        expect(["failed", "timeout"]).toContain(body.checks.database);
        // each check is bounded at 2 s
        expect(took).toBeLessThan(4000);
        // alive all the same
        expect((await fetch(`${doomed.url}/healthz`)).status).toBe(200);
      } finally {
        await restore();
      }
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = (await fetch(`${doomed.url}/readyz`)).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
    } finally {
      await doomed.stop();
    }
  });
});

// SQLite: the file is renamed away (the open connection would go on answering from it, so
// the readiness check compares the file at the path with the one opened). PostgreSQL: the
// test's own database stops accepting connections and its sessions are ended, so every query
// fails; nothing else on the shared server is touched.
async function takeDatabaseAway(s: TestServer): Promise<() => Promise<void>> {
  if (s.dbKind === "sqlite") {
    const file = s.databaseUrl.replace(/^file:/, "");
    renameSync(file, `${file}.gone`);
    return async () => renameSync(`${file}.gone`, file);
  }
  const name = decodeURIComponent(new URL(s.databaseUrl).pathname.slice(1));
  const adminUrl = s.databaseUrl.replace(/\/[^/]*$/, "/postgres");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);
  } finally {
    await admin.end();
  }
  return async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
    } finally {
      await c.end();
    }
  };
}

describe("GET /metrics", () => {
  it("refuses a missing or wrong bearer token with 401", async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } })).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: METRICS_TOKEN } })).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Basic ${METRICS_TOKEN}` } })).status).toBe(401);
  });

  it("serves Prometheus text whose relay counter grows by exactly the calls made", async () => {
    const before = await scrape();
    for (const name of [
      "gateway_relay_requests_total",
      "gateway_relay_retries_total",
      "gateway_relay_tokens_total",
      "gateway_relay_quota_charged_total",
      "gateway_billing_commit_seconds",
      "gateway_log_batch_commit_seconds",
    ])
      expect(before.types.get(name), name).toBe(name.endsWith("_seconds") ? "histogram" : "counter");
    for (const name of ["gateway_relay_streams_open", "gateway_billing_queue_depth", "gateway_log_queue_depth", "nodejs_eventloop_lag_seconds"])
      expect(before.types.get(name), name).toBe("gauge");

    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const calls = 5;
    for (let i = 0; i < 3; i++) {
      const r = await openai.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: `hello ${i}` }] });
      expect(r.choices[0].message.content).toBeTruthy();
    }
    for (let i = 0; i < 2; i++) {
      const stream = await openai.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "stream" }], stream: true });
      let text = "";
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
      expect(text).toBeTruthy();
    }
    // a refused call (bad key) counts as rejected, with no model or channel
    const bad = new OpenAI({ apiKey: "sk-not-a-real-key", baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(bad.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "x" }] })).rejects.toMatchObject({ status: 401 });

    const after = await scrape();
    const success = { route: "openai-chat", model: MODEL, outcome: "success" };
    const grew = (name: string, labels: Record<string, string> = {}) => sum(after.samples, name, labels) - sum(before.samples, name, labels);
    expect(grew("gateway_relay_requests_total", success)).toBe(calls);
    expect(grew("gateway_relay_requests_total", { route: "openai-chat", model: "", channel: "", outcome: "rejected" })).toBe(1);
    expect(grew("gateway_relay_requests_total")).toBe(calls + 1);
    // the success series names the channel by id
    const series = after.samples.filter((s) => s.name === "gateway_relay_requests_total" && s.labels.model === MODEL);
    expect(series.map((s) => s.labels.channel)).toEqual([expect.stringMatching(/^[1-9][0-9]*$/)]);
    // one observation per call in the call histograms, one per attempt upstream
    expect(grew("gateway_relay_added_latency_seconds_count", { route: "openai-chat" })).toBe(calls);
    expect(grew("gateway_relay_upstream_latency_seconds_count", { route: "openai-chat" })).toBe(calls);
    expect(grew("gateway_relay_time_to_first_byte_seconds_count", { route: "openai-chat" })).toBe(calls);
    expect(grew("gateway_relay_retries_total")).toBe(0);
    expect(sum(after.samples, "gateway_relay_streams_open")).toBe(0);
    // tokens and quota count once the settlement committed, which may follow the answer by a
    // few milliseconds (the request counter does not wait for it)
    let settled = after;
    for (
      let i = 0;
      i < 40 &&
      sum(settled.samples, "gateway_relay_tokens_total", { type: "prompt" }) - sum(before.samples, "gateway_relay_tokens_total", { type: "prompt" }) <
        calls * USAGE.prompt;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 50));
      settled = await scrape();
    }
    const charged = (name: string, labels: Record<string, string> = {}) => sum(settled.samples, name, labels) - sum(before.samples, name, labels);
    expect(charged("gateway_relay_tokens_total", { type: "prompt" })).toBe(calls * USAGE.prompt);
    expect(charged("gateway_relay_tokens_total", { type: "completion" })).toBe(calls * USAGE.completion);
    expect(charged("gateway_relay_quota_charged_total")).toBeGreaterThan(0);
    // and the request counter did not move meanwhile
    expect(charged("gateway_relay_requests_total")).toBe(calls + 1);
    // a histogram's buckets are cumulative and end with +Inf equal to the count
    const buckets = after.samples.filter((s) => s.name === "gateway_relay_added_latency_seconds_bucket" && s.labels.route === "openai-chat");
    expect(buckets.at(-1)!.labels.le).toBe("+Inf");
    expect(buckets.at(-1)!.value).toBe(sum(after.samples, "gateway_relay_added_latency_seconds_count", { route: "openai-chat" }));
    for (let i = 1; i < buckets.length; i++) expect(buckets[i].value).toBeGreaterThanOrEqual(buckets[i - 1].value);
  });

  it("counts retries, each upstream attempt, and a call that failed upstream", async () => {
    const bad = await startMockUpstream("openai");
    bad.behavior.failStatus = 500;
    try {
      const add = async (body: Record<string, unknown>) => expect((await root.post("/api/channel/", body)).success).toBe(true);
      // ops-retry: the failing channel first (priority), then the good one; ops-fail: only the failing one
      await add({ name: "ops-bad", type: 1, key: bad.key, base_url: bad.url, models: "ops-retry,ops-fail", group: "default", priority: 10 });
      await add({ name: "ops-good", type: 1, key: mock.key, base_url: mock.url, models: "ops-retry", group: "default", priority: 0 });
      const channels = (await root.get<{ items: { id: number; name: string }[] }>("/api/channel/?p=1&page_size=100")).data.items;
      const good = String(channels.find((c) => c.name === "ops-good")!.id);
      const badId = String(channels.find((c) => c.name === "ops-bad")!.id);

      const before = await scrape();
      const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
      const r = await openai.chat.completions.create({ model: "ops-retry", messages: [{ role: "user", content: "retry me" }] });
      expect(r.choices[0].message.content).toContain("retry me");
      await expect(openai.chat.completions.create({ model: "ops-fail", messages: [{ role: "user", content: "fail" }] })).rejects.toMatchObject({ status: 500 });
      const after = await scrape();
      const grew = (name: string, labels: Record<string, string> = {}) => sum(after.samples, name, labels) - sum(before.samples, name, labels);

      // the retried call is one call, counted on the channel that served it
      expect(grew("gateway_relay_requests_total", { model: "ops-retry", channel: good, outcome: "success" })).toBe(1);
      expect(grew("gateway_relay_requests_total", { model: "ops-fail", channel: badId, outcome: "upstream_error" })).toBe(1);
      expect(grew("gateway_relay_requests_total")).toBe(2);
      // ops-retry: 1 retry; ops-fail: the only channel is tried again (RetryTimes 2, no other channel left)
      expect(grew("gateway_relay_retries_total")).toBe(bad.requests.length - 1);
      expect(grew("gateway_relay_upstream_latency_seconds_count", { route: "openai-chat" })).toBe(bad.requests.length + 1);
      expect(grew("gateway_relay_added_latency_seconds_count", { route: "openai-chat" })).toBe(2);
      // only the call that was answered has a first byte
      expect(grew("gateway_relay_time_to_first_byte_seconds_count", { route: "openai-chat" })).toBe(1);
    } finally {
      await bad.close();
    }
  });
});
