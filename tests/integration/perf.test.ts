// The performance buckets (docs/performance.md) over real HTTP against the built server: a few
// hundred relay calls to a local mock upstream with known delays and failures (streamed and
// whole answers, upstream 500s, and 400s that blame the request), then the rollup job's fold:
//   - the success rate is exact (successes / counted calls, the 400s not counted);
//   - the TTFT and latency percentiles are within the sketch's 1% of the logs' own values,
//     and the output speed equals the logs' tokens over their generation time;
//   - per hour, per day and for the whole range alike, per model, per group and per channel;
//   - `npm run rollups:rebuild` writes the same buckets;
//   - the roles, and the status page: 404 (page and data) while off, the numbers when on.
import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { execDb, queryDb } from "../support/db";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";
import type { PerfRow } from "@/lib/client/perf";

const MODEL = "gpt-4o-mini";
const ACCURACY = 0.01; // lib/rollups/perf-sketch.ts

let server: TestServer;
let mock: MockUpstream;
let root: ApiClient;
let alice: { id: number; client: ApiClient };
let key: string;
let channelId: number;
let start: number;

const num = (v: unknown) => Number(v);

async function call(stream: boolean): Promise<number> {
  const r = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: MODEL, stream, messages: [{ role: "user", content: "hello there" }], max_tokens: 20 }),
  });
  await r.text();
  return r.status;
}

// `n` calls, `width` at a time, with the mock's behaviour set for them
async function batch(n: number, stream: boolean, width = 10): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += width) out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - i) }, () => call(stream)))));
  return out;
}

const runRollups = async () => {
  const r = await root.post<{ last_log_id: number; max_log_id: number }>("/api/data/refresh");
  expect(r.success, r.message).toBe(true);
  expect(r.data.last_log_id).toBe(r.data.max_log_id);
};

// the exact quantile the sketch approximates: the value of rank floor(q * (n - 1))
const exact = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))];
const near = (got: number | null, want: number) => {
  expect(got).not.toBeNull();
  // the sketch's relative error, and the API's rounding to whole ms
  expect(Math.abs((got as number) - want)).toBeLessThanOrEqual(want * ACCURACY + 0.5);
};

type Truth = { calls: number; successes: number; ttft: number[]; latency: number[]; genTokens: number; genMs: number };

// What the calls did, from their own log rows (docs/performance.md, "Success rate").
async function truth(): Promise<Truth> {
  const rows = await queryDb<{ type: number; other: string; latency_ms: number; is_stream: unknown; completion_tokens: number }>(
    server,
    "SELECT type, other, latency_ms, is_stream, completion_tokens FROM logs WHERE latency_ms > 0",
  );
  const t: Truth = { calls: 0, successes: 0, ttft: [], latency: [], genTokens: 0, genMs: 0 };
  for (const r of rows) {
    const o = JSON.parse(r.other) as { frt?: number; status_code?: number };
    if (num(r.type) === 6) {
      if ([400, 413, 422].includes(o.status_code ?? 0)) continue;
      t.calls++;
      continue;
    }
    t.calls++;
    t.successes++;
    t.latency.push(num(r.latency_ms));
    const stream = r.is_stream === true || num(r.is_stream) === 1;
    if (stream && o.frt) {
      t.ttft.push(o.frt);
      if (num(r.completion_tokens) > 0 && num(r.latency_ms) > o.frt) {
        t.genTokens += num(r.completion_tokens);
        t.genMs += num(r.latency_ms) - o.frt;
      }
    }
  }
  return t;
}

function check(row: PerfRow | undefined, t: Truth): void {
  expect(row).toBeDefined();
  const r = row as PerfRow;
  expect(r.calls).toBe(t.calls);
  expect(r.successes).toBe(t.successes);
  expect(r.success_rate).toBe(t.successes / t.calls);
  near(r.ttft_p50_ms, exact(t.ttft, 0.5));
  near(r.ttft_p95_ms, exact(t.ttft, 0.95));
  near(r.latency_p50_ms, exact(t.latency, 0.5));
  near(r.latency_p95_ms, exact(t.latency, 0.95));
  expect(r.output_tps).toBe(Math.round((t.genTokens * 100_000) / t.genMs) / 100);
}

// The hour rows of one key merged as a reader would: sums exact, so calls and successes add up.
const sumCalls = (rows: PerfRow[]) => rows.reduce((a, r) => a + r.calls, 0);

const perfPath = (what: string, g: string, extra = "") =>
  `/api/perf/${what}?start_timestamp=${start}&end_timestamp=${Math.floor(Date.now() / 1000) + 60}&granularity=${g}${extra}`;

function rebuild(): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      "npm",
      ["run", "--silent", "rollups:rebuild"],
      { env: { ...process.env, DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir, NODE_ENV: "production" }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 99) : 0, out: stdout + stderr }),
    );
  });
}

const bucketRows = () =>
  queryDb(
    server,
    'SELECT span, bucket, "group", model_name, calls, successes, ttft, latency, gen_tokens, gen_ms FROM log_perf_model_rollups ORDER BY span, bucket, "group", model_name',
  );

beforeAll(async () => {
  server = await startServer();
  mock = await startMockUpstream("openai");
  root = await setupRoot(server);
  start = Math.floor(Date.now() / 1000) - 60;
  const ch = await root.post("/api/channel/", { name: "mock", type: 1, key: mock.key, base_url: mock.url, models: MODEL, group: "default" });
  expect(ch.success, ch.message).toBe(true);
  const list = await root.get<{ items: { id: number }[] }>("/api/channel/?p=1&page_size=10");
  channelId = list.data.items[0].id;
  alice = await makeUser(server, root, "alice");
  expect((await root.put("/api/user/", { id: alice.id, quota: 500_000_000 })).success).toBe(true);
  const t = await alice.client.post<{ key: string }[]>("/api/token/", { name: "perf", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  key = t.data[0].key;

  // streamed answers after 20, 40 and 80 ms; whole answers after 30 ms; upstream 500s; 400s
  const statuses: number[] = [];
  for (const delayMs of [20, 40, 80]) {
    mock.behavior = { delayMs };
    statuses.push(...(await batch(60, true)));
  }
  mock.behavior = { delayMs: 30 };
  statuses.push(...(await batch(40, false)));
  mock.behavior = { failStatus: 500, delayMs: 10 };
  statuses.push(...(await batch(40, false)));
  mock.behavior = { failStatus: 400 };
  statuses.push(...(await batch(20, false)));
  mock.behavior = {};
  expect(statuses.filter((s) => s === 200).length).toBe(220);
  expect(statuses.filter((s) => s >= 500).length).toBe(40);
  expect(statuses.filter((s) => s === 400).length).toBe(20);
  for (let i = 0; i < 100; i++) {
    const [{ n }] = await queryDb<{ n: number }>(server, "SELECT COUNT(*) AS n FROM logs WHERE latency_ms > 0");
    if (num(n) === 280) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await runRollups();
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await mock?.close();
});

describe("the performance buckets", { timeout: 120_000 }, () => {
  it("equal what the calls did: success rate exact, percentiles within the sketch's error", async () => {
    const t = await truth();
    expect(t.calls).toBe(260); // the 400s are the request's fault: not counted
    expect(t.successes).toBe(220);
    expect(t.ttft.length).toBe(180);
    expect(exact(t.ttft, 0.5)).toBeGreaterThanOrEqual(40); // the mock's middle delay
    const total = await root.get<PerfRow[]>(perfPath("models", "total"));
    expect(total.success, total.message).toBe(true);
    expect(total.data.map((r) => r.model_name)).toEqual([MODEL]);
    check(total.data[0], t);
    // per group (the caller's own), per channel, and from the day rows: the same figures
    const mine = await alice.client.get<PerfRow[]>(perfPath("models", "total", "&group=default"));
    check(mine.data[0], t);
    const channels = await root.get<PerfRow[]>(perfPath("channels", "total"));
    expect(channels.data.map((r) => r.channel_id)).toEqual([channelId]);
    expect(channels.data[0].channel_name).toBe("mock");
    check(channels.data[0], t);
    const days = await root.get<PerfRow[]>(perfPath("models", "day"));
    expect(sumCalls(days.data)).toBe(260);
    if (days.data.length === 1) check(days.data[0], t);
    const hours = await root.get<PerfRow[]>(perfPath("models", "hour"));
    expect(sumCalls(hours.data)).toBe(260);
    expect(hours.data.reduce((a, r) => a + r.successes, 0)).toBe(220);
    // the day buckets hold the same calls as the hour buckets
    const [h] = await queryDb<{ c: number }>(server, "SELECT SUM(calls) AS c FROM log_perf_channel_rollups WHERE span = 3600");
    const [d] = await queryDb<{ c: number }>(server, "SELECT SUM(calls) AS c FROM log_perf_channel_rollups WHERE span = 86400");
    expect(num(h.c)).toBe(260);
    expect(num(d.c)).toBe(260);
  });

  it("a job run with nothing new changes nothing; npm run rollups:rebuild writes the same buckets", async () => {
    const before = await bucketRows();
    await runRollups();
    expect(await bucketRows()).toEqual(before);
    await execDb(server, "UPDATE log_perf_model_rollups SET calls = calls + 5, ttft = ''");
    const r = await rebuild();
    expect(r.code, r.out).toBe(0);
    expect(await bucketRows()).toEqual(before);
  });

  it("checks who asks and what", async () => {
    const other = await alice.client.get(perfPath("models", "total", "&group=not-mine"));
    expect(other.status).toBe(403);
    expect((await alice.client.get(perfPath("channels", "total"))).status).toBe(403);
    const long = await root.get(`/api/perf/models?start_timestamp=0&end_timestamp=${40 * 86_400}&granularity=hour`);
    expect(long.success).toBe(false);
    const bad = await root.get(`/api/perf/models?start_timestamp=10&end_timestamp=5`);
    expect(bad.success).toBe(false);
    expect((await new ApiClient(server.url).get(perfPath("models", "total"))).status).toBe(401);
  });

  it("the status page: 404 while off, the default group's models when on", async () => {
    const anon = new ApiClient(server.url);
    expect((await anon.get("/api/status/models")).status).toBe(404);
    expect((await fetch(`${server.url}/status`)).status).toBe(404);
    await setOptions(root, { StatusPageEnabled: "true" });
    const s = await anon.get<{ group: string; models: { model_name: string; day: { calls: number; success_rate: number; ttft_p50_ms: number } }[] }>(
      "/api/status/models",
    );
    expect(s.status).toBe(200);
    expect(s.data.group).toBe("default");
    const t = await truth();
    const m = s.data.models.find((x) => x.model_name === MODEL);
    expect(m?.day.calls).toBe(260);
    expect(m?.day.success_rate).toBe(220 / 260);
    near(m?.day.ttft_p50_ms ?? null, exact(t.ttft, 0.5));
    const page = await fetch(`${server.url}/status`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(MODEL);
    await setOptions(root, { StatusPageEnabled: "false" });
    expect((await anon.get("/api/status/models")).status).toBe(404);
  });
});
