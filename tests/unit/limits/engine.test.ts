// The limits engine (lib/limits/engine.ts) on its own, in memory and in a real Redis
// (127.0.0.1:6379, under a prefix of its own): exact counts under concurrent admissions,
// corrections at the end, holds released, and what GET /api/usage/limits reads.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Engine = typeof import("@/lib/limits/engine");
let engine: Engine;
let redisMod: typeof import("@/lib/cache/redis");

beforeAll(async () => {
  process.env.REDIS_URL = "redis://127.0.0.1:6379";
  process.env.REDIS_PREFIX = `gwunit:${randomBytes(4).toString("hex")}:`;
  redisMod = await import("@/lib/cache/redis");
  engine = await import("@/lib/limits/engine");
  await redisMod.whenRedisReady(5_000);
}, 120_000);

afterAll(async () => {
  const r = redisMod.redis();
  if (r) {
    const keys = await r.keys(`${process.env.REDIS_PREFIX}*`);
    if (keys.length) await r.del(...keys);
    r.disconnect();
  }
});

// token limits in LIMIT_FIELDS order: rpm, tpm, concurrency, quota_5h, quota_day, quota_week, quota_month
const limits = (o: Partial<Record<"rpm" | "tpm" | "conc" | "q5h" | "day", number>>) => [o.rpm ?? 0, o.tpm ?? 0, o.conc ?? 0, o.q5h ?? 0, o.day ?? 0, 0, 0];
let nextId = 1000;
const subject = (token: number[] | null, user: number[] | null = null) => ({ tokenId: nextId++, token, userId: nextId++, user, group: "default" });

async function admitted(s: ReturnType<typeof subject>, n: number, need = { tokens: 0, quota: 0 }) {
  const out = await Promise.allSettled(Array.from({ length: n }, () => engine.admit(engine.callChecks(s)!, need)));
  return {
    ok: out.filter((o) => o.status === "fulfilled").map((o) => (o as PromiseFulfilledResult<import("@/lib/limits/engine").Admission>).value),
    refused: out.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason as InstanceType<Engine["LimitExceeded"]>),
  };
}

describe("limits engine with Redis", () => {
  it("no limits: no counters", () => {
    expect(engine.callChecks(subject(null))).toBeNull();
    expect(engine.callChecks(subject(null, [0, 0, 0, -1, 0, 0, 0]))).toBeNull();
  });

  it("RPM 50 admits exactly 50 of 200 concurrent admissions, and says when it frees", async () => {
    const s = subject(limits({ rpm: 50 }));
    const { ok, refused } = await admitted(s, 200);
    expect(ok.length).toBe(50);
    expect(ok.every((a) => a.shared !== null)).toBe(true); // counted in Redis
    expect(refused.length).toBe(150);
    expect(refused[0]).toBeInstanceOf(engine.LimitExceeded);
    expect(refused[0]).toMatchObject({ scope: "token", limit: "rpm", max: 50 });
    expect(refused[0].retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused[0].retryAfter).toBeLessThanOrEqual(60);
    const [u] = await engine.readUsage(engine.callChecks(s)!);
    expect(u).toMatchObject({ scope: "token", limit: "rpm", max: 50, used: 50, left: 0 });
  });

  it("concurrency: holds count until finished, then free", async () => {
    const s = subject(limits({ conc: 3 }));
    const first = await admitted(s, 10);
    expect(first.ok.length).toBe(3);
    expect(first.refused[0]).toMatchObject({ limit: "concurrency", retryAfter: 1 });
    expect((await engine.readUsage(engine.callChecks(s)!))[0].used).toBe(3);
    await engine.finish(first.ok[0], { tokens: 0, quota: 0 });
    await engine.finish(first.ok[0], { tokens: 0, quota: 0 }); // once only
    const second = await admitted(s, 5);
    expect(second.ok.length).toBe(1);
    for (const a of [...first.ok, ...second.ok]) await engine.finish(a, { tokens: 0, quota: 0 });
    expect((await engine.readUsage(engine.callChecks(s)!))[0].used).toBe(0);
  });

  it("TPM and quotas: estimates at admission, settled amounts after; token and user together", async () => {
    const s = subject(limits({ tpm: 1000, day: 5000 }), limits({ q5h: 10_000 }));
    const { ok, refused } = await admitted(s, 5, { tokens: 300, quota: 2000 });
    expect(ok.length).toBe(2); // the day's 5,000 allows two estimates of 2,000; TPM three of 300
    expect(refused[0]).toMatchObject({ scope: "token", limit: "quota_day" });
    for (const a of ok) await engine.finish(a, { tokens: 100, quota: 500 });
    const usage = await engine.readUsage(engine.callChecks(s)!);
    expect(usage.map((u) => [u.scope, u.limit, u.used])).toEqual([
      ["token", "tpm", 200],
      ["user", "quota_5h", 1000],
      ["token", "quota_day", 1000],
    ]);
    // a call whose estimate alone passes the TPM can never fit
    await expect(engine.admit(engine.callChecks(s)!, { tokens: 1001, quota: 0 })).rejects.toMatchObject({ limit: "tpm", retryAfter: 60 });
  });
});
