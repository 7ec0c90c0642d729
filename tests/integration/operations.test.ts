// The operator's endpoints (docs/operations.md): /healthz, /readyz (200 while the database
// answers, 503 once it is gone) and /metrics (off without METRICS_TOKEN, bearer-protected,
// Prometheus text whose relay counter grows by exactly the calls made; channel status changes
// and database pools); the relay's request ids; the server log's JSON lines.
import { randomBytes } from "node:crypto";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, USAGE, type MockUpstream } from "../support/mock-upstreams";
import { queryDb } from "../support/db";
import { startServer, takeDatabaseAway, type TestServer } from "../support/server";

const METRICS_TOKEN = "metrics-token-0123456789abcdef0123456789";
const MODEL = "ops-model";

let server: TestServer;
let mock: MockUpstream;
let key: string;
let root: ApiClient;
// the keys of the failing upstreams started below, looked for in the server log at the end
const upstreamKeys: string[] = [];

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
// prom-client writes NaN as "Nan" (an event-loop histogram with no sample yet); Prometheus reads either
const SAMPLE = new RegExp(
  `^(${NAME})(?:\\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\.)*",?)*)\\})? (-?(?:[0-9]+(?:\\.[0-9]*)?(?:e[+-]?[0-9]+)?|\\.[0-9]+)|[Nn]a[Nn]|\\+Inf|-Inf)(?: -?[0-9]+)?$`,
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
    // the quota movements' commits are timed on either database (SQLite: by batch; PostgreSQL:
    // each reservation and settlement)
    expect(charged("gateway_billing_commit_seconds_count")).toBeGreaterThan(0);
    if (process.env.TEST_DB === "postgresql") expect(charged("gateway_billing_commit_seconds_count")).toBeGreaterThanOrEqual(2 * calls);
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

describe("GET /metrics: channel health and database pools", () => {
  it("exports the database pool gauges (PostgreSQL: both pools; SQLite: no pool, no series)", async () => {
    const { types, samples } = await scrape();
    const names = ["gateway_db_pool_connections", "gateway_db_pool_idle_connections", "gateway_db_pool_waiting_requests", "gateway_db_pool_max_connections"];
    for (const name of names) expect(types.get(name), name).toBe("gauge");
    const pools = (name: string) => samples.filter((s) => s.name === name).map((s) => s.labels.pool);
    if (server.dbKind === "postgresql") {
      for (const name of names) expect(pools(name).sort(), name).toEqual(["driver", "prisma"]);
      // the server has answered queries on both: each pool has a connection open, none waits past its maximum
      for (const pool of ["driver", "prisma"]) {
        expect(sum(samples, "gateway_db_pool_connections", { pool })).toBeGreaterThan(0);
        expect(sum(samples, "gateway_db_pool_connections", { pool })).toBeLessThanOrEqual(sum(samples, "gateway_db_pool_max_connections", { pool }));
        expect(sum(samples, "gateway_db_pool_idle_connections", { pool })).toBeLessThanOrEqual(sum(samples, "gateway_db_pool_connections", { pool }));
      }
      expect(sum(samples, "gateway_db_pool_max_connections", { pool: "prisma" })).toBe(10);
    } else {
      for (const name of names) expect(pools(name), name).toEqual([]);
    }
  });

  it("counts a channel auto-disabled by the relay, and auto-enabled by a passed test", async () => {
    expect((await scrape()).types.get("gateway_channel_status_changes_total")).toBe("counter");
    const sick = await startMockUpstream("openai");
    upstreamKeys.push(sick.key);
    sick.behavior.failStatus = 500;
    await setOptions(root, {
      ModelRatio: JSON.stringify({ [MODEL]: 1, "ops-retry": 1, "ops-fail": 1, "ops-sick": 1 }),
      AutomaticDisableChannelEnabled: "true",
      AutomaticEnableChannelEnabled: "true",
      ChannelDisableFailureCount: "1",
    });
    try {
      const c = await root.post("/api/channel/", { name: "ops-sick", type: 1, key: sick.key, base_url: sick.url, models: "ops-sick", group: "default" });
      expect(c.success, c.message).toBe(true);
      const channels = (await root.get<{ items: { id: number; name: string; status: number }[] }>("/api/channel/?p=1&page_size=100")).data.items;
      const id = String(channels.find((ch) => ch.name === "ops-sick")!.id);
      const changes = (samples: Sample[], change: string) => sum(samples, "gateway_channel_status_changes_total", { channel: id, change });
      const before = await scrape();
      expect(changes(before.samples, "auto_disabled")).toBe(0);

      const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
      await expect(openai.chat.completions.create({ model: "ops-sick", messages: [{ role: "user", content: "x" }] })).rejects.toMatchObject({ status: 500 });
      // the disabling runs after the answer
      let after = await scrape();
      for (let i = 0; i < 40 && changes(after.samples, "auto_disabled") === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        after = await scrape();
      }
      expect(changes(after.samples, "auto_disabled")).toBe(1);
      expect(changes(after.samples, "auto_enabled")).toBe(0);
      const status = async () =>
        (await root.get<{ items: { name: string; status: number }[] }>("/api/channel/?p=1&page_size=100")).data.items.find((ch) => ch.name === "ops-sick")!
          .status;
      expect(await status()).toBe(3);
      // and the server log says so, as a JSON line of the channels area
      let line;
      for (let i = 0; i < 40 && !(line = server.logLines().find((l) => l.msg === "channel auto-disabled" && l.channelId === Number(id))); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(line).toMatchObject({ level: "warn", area: "channels" });

      // the upstream recovers; a passed test enables the channel again (counted once)
      sick.behavior.failStatus = undefined;
      expect(await root.call<never>("GET", `/api/channel/test/${id}`)).toMatchObject({ success: true });
      expect(await status()).toBe(1);
      const enabled = await scrape();
      expect(changes(enabled.samples, "auto_enabled")).toBe(1);
      expect(changes(enabled.samples, "auto_disabled")).toBe(1);
    } finally {
      await setOptions(root, { AutomaticDisableChannelEnabled: "false", AutomaticEnableChannelEnabled: "false", ChannelDisableFailureCount: "5" });
      await sick.close();
    }
  });
});

// ---- request ids (docs/operations.md, "Request ids")

type LogRow = { id: number; type: number; request_id: string; model_name: string; content: string; other: string };

// The usage-log rows with this request id, through the admin log API's filter, once there are n.
async function logsWithRequestId(id: string, n = 1): Promise<LogRow[]> {
  let items: LogRow[] = [];
  for (let i = 0; i < 60; i++) {
    const r = await root.get<{ items: LogRow[] }>(`/api/log/?p=1&page_size=10&request_id=${encodeURIComponent(id)}`);
    expect(r.success, r.message).toBe(true);
    items = r.data.items;
    if (items.length >= n) return items;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`no log row with request id ${id}: ${JSON.stringify(items)}`);
}

const ledgerRefs = async (ref: string) =>
  (await queryDb<{ kind: string }>(server, 'SELECT "kind" FROM "quota_ledger" WHERE "ref" = $1 ORDER BY "id"', [ref])).map((r) => r.kind);

const chat = (body: Record<string, unknown>, headers: Record<string, string> = {}, token = key) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: Object.assign({ authorization: `Bearer ${token}`, "content-type": "application/json" }, headers),
    body: JSON.stringify(body),
  });

// the gateway's ids are UUIDs version 7 (time-ordered, lib/http/request-id.ts)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("request ids", () => {
  it("echoes the client's X-Request-Id and stores it in the log row, the ledger keeping a ref of its own", async () => {
    const given = `client-${randomBytes(6).toString("hex")}:a.b_c/d+e=`;
    const r = await chat({ model: MODEL, messages: [{ role: "user", content: "with an id" }] }, { "X-Request-Id": given });
    expect(r.status, await r.clone().text()).toBe(200);
    expect(r.headers.get("x-request-id")).toBe(given);
    await r.json();
    const [row] = await logsWithRequestId(given);
    expect(row).toMatchObject({ type: 2, request_id: given, model_name: MODEL });
    // a client's id need not be unique: the reservation's ledger rows carry a ref made here,
    // which the log row names
    const other = JSON.parse(row.other) as { ledger_ref?: string };
    expect(other.ledger_ref).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await ledgerRefs(other.ledger_ref!)).toContain("relay_reserve");
    expect(await ledgerRefs(given)).toEqual([]);
  });

  it("makes one when none (or a malformed one) is given: in the header, the log row and the ledger", async () => {
    const r = await chat({ model: MODEL, messages: [{ role: "user", content: "no id" }] });
    expect(r.status).toBe(200);
    const id = r.headers.get("x-request-id")!;
    expect(id).toMatch(UUID);
    await r.json();
    const [row] = await logsWithRequestId(id);
    expect(row.request_id).toBe(id);
    expect((JSON.parse(row.other) as { ledger_ref?: string }).ledger_ref).toBeUndefined();
    expect(await ledgerRefs(id)).toContain("relay_reserve");
    // too long, or with characters that do not belong in a header or a log line: replaced
    for (const bad of ["x".repeat(129), "has space", 'quote"d', "a,b"]) {
      const b = await chat({ model: MODEL, messages: [{ role: "user", content: "bad id" }] }, { "X-Request-Id": bad });
      expect(b.status).toBe(200);
      expect(b.headers.get("x-request-id")).toMatch(UUID);
      await b.json();
    }
    // every call gets its own
    const again = await chat({ model: MODEL, messages: [{ role: "user", content: "no id" }] });
    expect(again.headers.get("x-request-id")).toMatch(UUID);
    expect(again.headers.get("x-request-id")).not.toBe(id);
    // time-ordered: a later call's id sorts after (its first 48 bits are the time in ms)
    expect(again.headers.get("x-request-id")!.slice(0, 13) >= id.slice(0, 13)).toBe(true);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBeGreaterThan(Date.now() - 60_000);
    await again.json();
  });

  it("is in the header of a stream and of the other relay answers", async () => {
    const s = await chat({ model: MODEL, messages: [{ role: "user", content: "stream" }], stream: true }, { "X-Request-Id": "stream-id-1" });
    expect(s.status).toBe(200);
    expect(s.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(s.headers.get("x-request-id")).toBe("stream-id-1");
    expect(await s.text()).toContain("[DONE]");
    expect((await logsWithRequestId("stream-id-1"))[0]).toMatchObject({ type: 2, model_name: MODEL });
    const models = await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${key}`, "x-request-id": "models-id-1" } });
    expect(models.status).toBe(200);
    expect(models.headers.get("x-request-id")).toBe("models-id-1");
    const unknown = await fetch(`${server.url}/v1/nothing-here`, { headers: { "x-request-id": "unknown-id-1" } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("x-request-id")).toBe("unknown-id-1");
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/ \(request id: unknown-id-1\)$/);
  });

  it("ends every error message, the gateway's and the upstream's, in every format", async () => {
    // refused by the gateway: a bad key (OpenAI's shape), a model without channel (Anthropic's)
    const bad = await chat({ model: MODEL, messages: [{ role: "user", content: "x" }] }, { "X-Request-Id": "bad-key-id" }, "sk-not-a-real-key");
    expect(bad.status).toBe(401);
    expect(bad.headers.get("x-request-id")).toBe("bad-key-id");
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/\S \(request id: bad-key-id\)$/);
    const anthropic = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: "no-such-model", max_tokens: 16, messages: [{ role: "user", content: "x" }] }),
    });
    expect(anthropic.status).toBeGreaterThanOrEqual(400);
    const generated = anthropic.headers.get("x-request-id")!;
    expect(generated).toMatch(UUID);
    const a = (await anthropic.json()) as { type: string; error: { message: string } };
    expect(a.type).toBe("error");
    expect(a.error.message.endsWith(` (request id: ${generated})`)).toBe(true);

    // failed upstream (the mock's message names its key: the relay redacts it), with its error log row
    const sick = await startMockUpstream("openai");
    upstreamKeys.push(sick.key);
    sick.behavior.failStatus = 400;
    try {
      await setOptions(root, { ModelRatio: JSON.stringify({ [MODEL]: 1, "ops-retry": 1, "ops-fail": 1, "ops-sick": 1, "ops-400": 1 }) });
      const c = await root.post("/api/channel/", { name: "ops-400", type: 1, key: sick.key, base_url: sick.url, models: "ops-400", group: "default" });
      expect(c.success, c.message).toBe(true);
      const r = await chat({ model: "ops-400", messages: [{ role: "user", content: "x" }] }, { "X-Request-Id": "upstream-fail-id" });
      expect(r.status).toBe(400);
      expect(r.headers.get("x-request-id")).toBe("upstream-fail-id");
      const message = ((await r.json()) as { error: { message: string } }).error.message;
      expect(message).toMatch(/^mock failure 400 .* \(request id: upstream-fail-id\)$/);
      expect(message).not.toContain(sick.key);
      const [row] = await logsWithRequestId("upstream-fail-id");
      expect(row).toMatchObject({ type: 6, model_name: "ops-400" });
      // the log row keeps the upstream's message as it was (the id is its own column)
      expect(row.content).not.toContain("request id");
    } finally {
      await sick.close();
    }
  });
});

describe("server log", () => {
  it("is JSON lines with a level, and no key ever appears in it", async () => {
    const lines = server
      .logs()
      .split("\n")
      .filter((l) => l.startsWith("{"));
    expect(lines.length).toBeGreaterThan(0);
    const parsed = server.logLines();
    expect(parsed.length).toBe(lines.length);
    for (const l of parsed) {
      expect(["fatal", "error", "warn", "info", "debug", "trace"]).toContain(l.level);
      expect(typeof l.time).toBe("string");
      expect(typeof l.area).toBe("string");
    }
    expect(parsed.find((l) => l.area === "server" && String(l.msg).startsWith("ready on "))).toMatchObject({ level: "info" });
    // the channels' keys, the user's token and the metrics token never appear (the auto-disable line
    // above carries the upstream's message, which named its key)
    const all = server.logs();
    expect(upstreamKeys).toHaveLength(2);
    for (const secret of [mock.key, ...upstreamKeys, key, key.replace(/^sk-/, ""), METRICS_TOKEN]) expect(all).not.toContain(secret);
  });
});
