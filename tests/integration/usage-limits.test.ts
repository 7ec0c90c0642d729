// The usage limits on one node (docs/usage-limits.md), counted in memory (no REDIS_URL; the
// three-node test counts them in Redis): RPM, concurrency, TPM, the rolling quota (its window
// shortened to 6 s by LIMITS_ROLLING_SECONDS), a calendar day, user and group-default limits,
// each ingress's 429 through the official SDKs, and GET /api/usage/limits against what the
// calls consumed. SQLite and PostgreSQL projects.
import Anthropic from "@anthropic-ai/sdk";
import { ApiError, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { startServer, type TestServer } from "../support/server";
import { COMPLETION, PROMPT, startCountingUpstream, type CountingUpstream } from "../support/counting-upstream";
import { calendarPeriod } from "@/lib/limits/windows";

const ROLLING_S = 6;
const CALL_PRICE = 0.002; // m-call: 0.002 USD a call = 1,000 quota units

let server: TestServer;
let root: ApiClient;
let up: CountingUpstream;
let alice: { id: number; client: ApiClient };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const chat = (key: string, model = "m-lim", extra: Record<string, unknown> = {}) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "accept-language": "en" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }], ...extra }),
  });

async function newToken(owner: ApiClient, name: string, extra: Record<string, unknown> = {}): Promise<{ id: number; key: string }> {
  const r = await owner.post<{ id: number; key: string }[]>("/api/token/", { name, unlimited_quota: true, ...extra });
  expect(r.success, r.message).toBe(true);
  return r.data[0];
}

type Entry = { scope: string; limit: string; max: number; used: number; left: number; reset_at: number | null };
async function limitsOf(key: string): Promise<Entry[]> {
  const r = await fetch(`${server.url}/api/usage/limits`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await r.json()) as { success: boolean; message: string; data: Entry[] };
  expect(body.success, body.message).toBe(true);
  return body.data;
}
const entry = (list: Entry[], scope: string, limit: string) => list.find((e) => e.scope === scope && e.limit === limit);

beforeAll(async () => {
  up = await startCountingUpstream();
  server = await startServer({ env: { LIMITS_ROLLING_SECONDS: String(ROLLING_S) } });
  root = await setupRoot(server);
  await setOptions(root, {
    ModelRatio: JSON.stringify({ "m-lim": 1, "claude-lim": 1, "gemini-lim": 1 }),
    ModelPrice: JSON.stringify({ "m-call": CALL_PRICE, mj_imagine: 0.1 }),
    DrawingEnabled: "true",
  });
  const r = await root.post("/api/channel/", {
    name: "counting",
    type: 1,
    key: "sk-upstream-counting",
    base_url: up.url,
    models: "m-lim,m-call,claude-lim,gemini-lim",
    group: "default,vip",
  });
  expect(r.success, r.message).toBe(true);
  alice = await makeUser(server, root, "alice");
  expect((await root.put("/api/user/", { id: alice.id, quota: 1_000_000_000 })).success).toBe(true);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await up?.close();
});

describe("fields", () => {
  it("tokens and users take the limit fields, refuse bad values naming the field, and answer them", async () => {
    const t = await newToken(alice.client, "fields", {
      rpm_limit: 7,
      tpm_limit: 8,
      concurrency_limit: 9,
      quota_5h: 10,
      quota_day: 11,
      quota_week: 12,
      quota_month: 13,
    });
    const bad = await alice.client.post("/api/token/", { name: "bad", rpm_limit: -1 });
    expect([bad.success, bad.message]).toEqual([false, "Invalid parameter: rpm_limit"]);
    const frac = await alice.client.put("/api/token/", { id: t.id, quota_day: 1.5 });
    expect([frac.success, frac.message]).toEqual([false, "Invalid parameter: quota_day"]);
    const got = await alice.client.get<Record<string, unknown>>(`/api/token/${t.id}`);
    expect(got.data).toMatchObject({ rpm_limit: 7, tpm_limit: 8, concurrency_limit: 9, quota_5h: 10, quota_day: 11, quota_week: 12, quota_month: 13 });
    const list = await alice.client.get<{ items: Record<string, unknown>[] }>("/api/token/?p=1&page_size=50");
    expect(list.data.items.find((x) => x.id === t.id)).toMatchObject({ rpm_limit: 7, quota_month: 13 });
    // users: -1 is "none whatever the group says", below that is refused
    const u = await root.put<Record<string, unknown>>("/api/user/", { id: alice.id, rpm_limit: -1, quota_week: 0 });
    expect(u.success, u.message).toBe(true);
    expect(u.data).toMatchObject({ rpm_limit: -1, quota_week: 0 });
    const worse = await root.put("/api/user/", { id: alice.id, tpm_limit: -2 });
    expect([worse.success, worse.message]).toEqual([false, "Invalid parameter: tpm_limit"]);
    expect((await root.put("/api/user/", { id: alice.id, rpm_limit: 0 })).success).toBe(true);
    // GroupLimits: a JSON object of groups, each of the limit fields
    for (const v of ['{"vip":{"rpm":3}}', '{"vip":{"rpm_limit":-3}}', "[1]", '{"vip":5}']) {
      const o = await root.put("/api/option/", { key: "GroupLimits", value: v });
      expect(o.success, v).toBe(false);
      expect(o.message).toContain("GroupLimits");
    }
  });
});

describe("token limits", () => {
  it("RPM 50: of 200 concurrent calls exactly 50 are admitted, the rest get 429 with Retry-After", async () => {
    const t = await newToken(alice.client, "rpm50", { rpm_limit: 50 });
    const before = up.requests;
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => chat(t.key).then(async (r) => ({ status: r.status, retry: r.headers.get("retry-after"), body: await r.text() }))),
    );
    expect(answers.filter((a) => a.status === 200).length).toBe(50);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBe(150);
    expect(up.requests - before).toBe(50);
    for (const a of refused) {
      expect(Number(a.retry)).toBeGreaterThanOrEqual(1);
      expect(Number(a.retry)).toBeLessThanOrEqual(61);
      const err = (JSON.parse(a.body) as { error: { type: string; message: string } }).error;
      expect(err.type).toBe("rate_limit_error");
      expect(err.message).toContain("requests-per-minute limit (RPM 50)");
    }
    expect(entry(await limitsOf(t.key), "token", "rpm")).toMatchObject({ max: 50, used: 50, left: 0 });
  }, 120_000);

  it("concurrency 5: the upstream never sees a sixth call in flight, and the holds go when the calls end", async () => {
    const t = await newToken(alice.client, "conc5", { concurrency_limit: 5 });
    up.delayMs = 800;
    up.maxInFlight = 0;
    try {
      const waves = await Promise.all(
        Array.from({ length: 4 }, async (_, w) => {
          await sleep(w * 300);
          return Promise.all(
            Array.from({ length: 8 }, () => chat(t.key).then(async (r) => ({ status: r.status, retry: r.headers.get("retry-after"), text: await r.text() }))),
          );
        }),
      );
      const all = waves.flat();
      expect(up.maxInFlight).toBe(5);
      expect(all.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(5);
      const refused = all.filter((a) => a.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      for (const a of refused) {
        expect(a.retry).toBe("1");
        expect(a.text).toContain("concurrency limit (5 calls in flight)");
      }
    } finally {
      up.delayMs = 0;
    }
    expect(entry(await limitsOf(t.key), "token", "concurrency")).toMatchObject({ max: 5, used: 0, left: 5, reset_at: null });
    // all five free again
    up.delayMs = 300;
    try {
      const again = await Promise.all(Array.from({ length: 5 }, () => chat(t.key).then((r) => r.status)));
      expect(again).toEqual([200, 200, 200, 200, 200]);
    } finally {
      up.delayMs = 0;
    }
  }, 60_000);

  it("TPM 10,000: calls in flight never pass it by their estimates, and calls are admitted until the settled usage reaches it", async () => {
    // at once: each call holds its estimate (its prompt plus max_tokens) while it is in flight
    const t = await newToken(alice.client, "tpm-burst", { tpm_limit: 10_000 });
    up.delayMs = 3_000;
    let during: Entry | undefined;
    let statuses: number[];
    try {
      let refusedSoFar = 0;
      const calls = Promise.all(
        Array.from({ length: 40 }, () =>
          chat(t.key, "m-lim", { max_tokens: 400 }).then((r) => {
            if (r.status === 429) refusedSoFar++;
            return r.status;
          }),
        ),
      );
      // every call decided: refused, or waiting at the upstream (none has settled yet)
      while (refusedSoFar + up.inFlight < 40) await sleep(20);
      during = entry(await limitsOf(t.key), "token", "tpm");
      statuses = await calls;
    } finally {
      up.delayMs = 0;
    }
    const admitted = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s === 429).length).toBe(40 - admitted);
    expect(admitted).toBeGreaterThan(0);
    const estimate = during!.used / admitted;
    expect(Number.isInteger(estimate)).toBe(true);
    expect(estimate).toBeGreaterThan(400);
    expect(during!.used).toBeLessThanOrEqual(10_000);
    expect(during!.used + estimate).toBeGreaterThan(10_000); // not one more call fitted
    // settled: the estimates gave way to the usage the upstream reported
    expect(entry(await limitsOf(t.key), "token", "tpm")!.used).toBe(admitted * (PROMPT + COMPLETION));

    // one after another: 1,000 settled tokens a call, so the tenth fills it and the eleventh is
    // refused. The correction goes out once the client has its answer (docs/usage-limits.md,
    // "Estimates and corrections"): each call waits for the one before to be corrected.
    const s = await newToken(alice.client, "tpm-seq", { tpm_limit: 10_000 });
    const seq: number[] = [];
    for (let i = 0; i < 11; i++) {
      seq.push((await chat(s.key, "m-lim", { max_tokens: 400 })).status);
      if (seq[i] === 200) await expect.poll(async () => entry(await limitsOf(s.key), "token", "tpm")!.used).toBe((i + 1) * 1000);
    }
    expect(seq).toEqual([...Array(10).fill(200), 429]);
    expect(entry(await limitsOf(s.key), "token", "tpm")).toMatchObject({ max: 10_000, used: 10_000, left: 0 });
  }, 60_000);

  it("the rolling quota (6 s here, 5 h by default) counts the settled cost and frees on time", async () => {
    const t = await newToken(alice.client, "rolling", { quota_5h: 3_000 });
    const first = Date.now();
    for (let i = 0; i < 3; i++) expect((await chat(t.key, "m-call")).status).toBe(200);
    const r = await chat(t.key, "m-call");
    expect(r.status).toBe(429);
    expect(await r.text()).toContain("5-hour quota (3000)");
    const retry = Number(r.headers.get("retry-after"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(ROLLING_S + 1);
    const e = entry(await limitsOf(t.key), "token", "quota_5h")!;
    expect(e).toMatchObject({ max: 3_000, used: 3_000, left: 0 });
    expect(e.reset_at! * 1000).toBeGreaterThanOrEqual(first + ROLLING_S * 1000 - 200);
    expect(e.reset_at! * 1000).toBeLessThanOrEqual(Date.now() + (ROLLING_S + 1) * 1000);
    // still refused a little before the window has slid past the first call
    await sleep(Math.max(0, first + (ROLLING_S - 2) * 1000 - Date.now()));
    expect((await chat(t.key, "m-call")).status).toBe(429);
    // after the Retry-After it gave, the first calls have left the window
    await sleep(Math.max(0, e.reset_at! * 1000 - Date.now()) + 300);
    expect((await chat(t.key, "m-call")).status).toBe(200);
  }, 60_000);
});

describe("user limits", () => {
  it("a user's own daily quota holds for all their tokens and frees at the site's midnight", async () => {
    const bob = await makeUser(server, root, "bob-day");
    expect((await root.put("/api/user/", { id: bob.id, quota: 1_000_000_000, quota_day: 2_000 })).success).toBe(true);
    const a = await newToken(bob.client, "a");
    const b = await newToken(bob.client, "b");
    expect((await chat(a.key, "m-call")).status).toBe(200);
    expect((await chat(b.key, "m-call")).status).toBe(200);
    const r = await chat(a.key, "m-call");
    expect(r.status).toBe(429);
    expect(await r.text()).toContain("The user reached its daily quota (2000)");
    const end = calendarPeriod("day", process.env.TZ || "Asia/Shanghai", Date.now()).endMs;
    expect(Math.abs(Number(r.headers.get("retry-after")) - (end - Date.now()) / 1000)).toBeLessThanOrEqual(3);
    // the session sees the user's limits (the tokens have none)
    const mine = await bob.client.get<Entry[]>("/api/usage/limits");
    expect(mine.data).toEqual([{ scope: "user", limit: "quota_day", max: 2_000, used: 2_000, left: 0, reset_at: Math.ceil(end / 1000) }]);
  });

  it("a group's default applies to its users, a user's own value overrides it, and -1 lifts it", async () => {
    const carol = await makeUser(server, root, "carol-vip");
    expect((await root.put("/api/user/", { id: carol.id, quota: 1_000_000_000, group: "vip" })).success).toBe(true);
    await setOptions(root, { GroupLimits: JSON.stringify({ vip: { rpm_limit: 2 } }) });
    const t = await newToken(carol.client, "vip");
    expect([(await chat(t.key)).status, (await chat(t.key)).status]).toEqual([200, 200]);
    const r = await chat(t.key);
    expect(r.status).toBe(429);
    expect(await r.text()).toContain("The user reached its requests-per-minute limit (RPM 2)");
    expect(entry(await limitsOf(t.key), "user", "rpm")).toMatchObject({ max: 2, used: 2 });
    // her own RPM of 4 replaces the group's 2
    expect((await root.put("/api/user/", { id: carol.id, rpm_limit: 4 })).success).toBe(true);
    expect([(await chat(t.key)).status, (await chat(t.key)).status, (await chat(t.key)).status]).toEqual([200, 200, 429]);
    // -1: no RPM limit for her whatever the group says
    expect((await root.put("/api/user/", { id: carol.id, rpm_limit: -1 })).success).toBe(true);
    for (let i = 0; i < 3; i++) expect((await chat(t.key)).status).toBe(200);
    expect(entry(await limitsOf(t.key), "user", "rpm")).toBeUndefined();
    await setOptions(root, { GroupLimits: "{}" });
  });
});

describe("each ingress answers 429 in its own shape with Retry-After", () => {
  let key = "";
  beforeAll(async () => {
    key = (await newToken(alice.client, "sdk", { rpm_limit: 1 })).key;
    expect((await chat(key)).status).toBe(200); // the one call of the minute
  });

  it("OpenAI: openai.RateLimitError", async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const err = await openai.chat.completions.create({ model: "m-lim", messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const e = err as InstanceType<typeof OpenAI.RateLimitError>;
    expect(e.status).toBe(429);
    expect(Number(e.headers?.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(e.message).toContain("RPM 1");
    // the Responses ingress too
    const resp = await openai.responses.create({ model: "m-lim", input: "x" }).catch((x: unknown) => x);
    expect(resp).toBeInstanceOf(OpenAI.RateLimitError);
  });

  it("Anthropic: Anthropic.RateLimitError", async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const err = await anthropic.messages.create({ model: "claude-lim", max_tokens: 16, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    const e = err as InstanceType<typeof Anthropic.RateLimitError>;
    expect(Number(e.headers?.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((e.error as { type: string; error: { type: string; message: string } }).error.type).toBe("rate_limit_error");
  });

  it("Gemini: @google/genai ApiError with status 429", async () => {
    const gemini = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: server.url } });
    const err = await gemini.models.generateContent({ model: "gemini-lim", contents: "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(429);
    const raw = await fetch(`${server.url}/v1beta/models/gemini-lim:generateContent`, {
      method: "POST",
      headers: { "x-goog-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ parts: [{ text: "x" }] }] }),
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await raw.json()) as { error: { status: string } }).error.status).toBe("RESOURCE_EXHAUSTED");
  });

  it("tasks (Midjourney): its own error body", async () => {
    const r = await fetch(`${server.url}/mj/submit/imagine`, {
      method: "POST",
      headers: { "mj-api-secret": key, "content-type": "application/json", "accept-language": "en" },
      body: JSON.stringify({ prompt: "a fox" }),
    });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = (await r.json()) as { code: number; description: string; type: string };
    expect(body.description).toContain("RPM 1");
    expect(body.type).toBe("rate_limit_error");
  });
});

describe("GET /api/usage/limits", () => {
  it("matches what the calls consumed, for the token and for the user", async () => {
    const dave = await makeUser(server, root, "dave-usage");
    expect((await root.put("/api/user/", { id: dave.id, quota: 1_000_000_000, quota_week: 1_000_000_000 })).success).toBe(true);
    const t = await newToken(dave.client, "usage", {
      rpm_limit: 100,
      tpm_limit: 1_000_000,
      concurrency_limit: 3,
      quota_day: 1_000_000_000,
      quota_month: 1_000_000_000,
    });
    for (let i = 0; i < 3; i++) expect((await chat(t.key)).status).toBe(200);
    const used = Number((await dave.client.get<{ used_quota: number }>(`/api/token/${t.id}`)).data.used_quota);
    expect(used).toBeGreaterThan(0);
    const list = await limitsOf(t.key);
    expect(list.map((e) => `${e.scope}:${e.limit}`).sort()).toEqual(
      ["token:rpm", "token:tpm", "token:concurrency", "token:quota_day", "token:quota_month", "user:quota_week"].sort(),
    );
    expect(entry(list, "token", "rpm")).toMatchObject({ used: 3, left: 97 });
    expect(entry(list, "token", "tpm")).toMatchObject({ used: 3 * (PROMPT + COMPLETION) });
    expect(entry(list, "token", "concurrency")).toMatchObject({ used: 0, reset_at: null });
    expect(entry(list, "token", "quota_day")).toMatchObject({ used, left: 1_000_000_000 - used });
    expect(entry(list, "token", "quota_month")!.used).toBe(used);
    expect(entry(list, "user", "quota_week")!.used).toBe(used);
    const week = calendarPeriod("week", process.env.TZ || "Asia/Shanghai", Date.now());
    expect(entry(list, "user", "quota_week")!.reset_at).toBe(Math.ceil(week.endMs / 1000));
    // the session: the user's limits only
    const mine = await dave.client.get<Entry[]>("/api/usage/limits");
    expect(mine.data.map((e) => `${e.scope}:${e.limit}`)).toEqual(["user:quota_week"]);
    // several of the session's tokens at once (the token list): each as the token itself is
    // answered, in the order asked; another user's token is left out; a bad list is refused
    const second = await newToken(dave.client, "usage-2", { rpm_limit: 7 });
    const foreign = await newToken((await makeUser(server, root, "erin-usage")).client, "foreign", { rpm_limit: 5 });
    const many = await dave.client.get<{ token_id: number; limits: Entry[] }[]>(`/api/usage/limits?token_ids=${second.id},${foreign.id},${t.id}`);
    expect(many.success, many.message).toBe(true);
    expect(many.data.map((r) => r.token_id)).toEqual([second.id, t.id]);
    expect(many.data[1].limits).toEqual(await limitsOf(t.key));
    expect(entry(many.data[0].limits, "token", "rpm")).toMatchObject({ max: 7, used: 0 });
    for (const bad of ["", "1,,2", "0", "x", Array.from({ length: 101 }, (_, i) => i + 1).join(",")]) {
      expect((await dave.client.get(`/api/usage/limits?token_ids=${bad}`)).message, bad).toBe("Invalid parameter");
    }
    // neither a session nor a token: refused
    expect((await fetch(`${server.url}/api/usage/limits`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/usage/limits`, { headers: { authorization: "Bearer sk-nope" } })).status).toBe(401);
  });
});

// A node whose Redis cannot be reached (docs/usage-limits.md, "Counting across nodes"): it
// counts in its own memory, exactly as one node does, and says so once in its log.
describe("Redis unreachable", () => {
  it("counts in the node's memory and says so once", async () => {
    const alone = await startServer({ env: { REDIS_URL: "redis://127.0.0.1:1", REDIS_PREFIX: "gwtest-down:" } });
    try {
      const admin = await setupRoot(alone);
      await setOptions(admin, { ModelRatio: JSON.stringify({ "m-lim": 1 }) });
      const ch = await admin.post("/api/channel/", {
        name: "counting",
        type: 1,
        key: "sk-upstream-counting",
        base_url: up.url,
        models: "m-lim",
        group: "default",
      });
      expect(ch.success, ch.message).toBe(true);
      const dora = await makeUser(alone, admin, "dora-down");
      expect((await admin.put("/api/user/", { id: dora.id, quota: 1_000_000_000 })).success).toBe(true);
      const t = await newToken(dora.client, "down", { rpm_limit: 3 });
      const call = () =>
        fetch(`${alone.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "m-lim", messages: [{ role: "user", content: "x" }] }),
        }).then((r) => r.status);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push(await call());
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const said = alone.logLines().filter((l) => String(l.msg).startsWith("Redis unreachable: usage limits are counted in this node's memory"));
      expect(said).toHaveLength(1);
    } finally {
      await alone.stop();
    }
  }, 60_000);
});
