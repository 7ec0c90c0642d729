// The relay's data layer, called in-process against the test server's database (the same
// code the relay will call), with the console API checked over HTTP alongside.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";
import { query, seedUser, useServerEnvironment, type SeededUser } from "../support/seed";

let server: TestServer;
let admin: SeededUser;
let alice: SeededUser;
let lib: {
  reserve: typeof import("@/lib/billing/reserve");
  settle: typeof import("@/lib/billing/settle");
  ledger: typeof import("@/lib/billing/ledger");
  db: typeof import("@/lib/db/client");
  tokens: typeof import("@/lib/relay/token-cache");
  select: typeof import("@/lib/relay/select");
  writer: typeof import("@/lib/logs/writer");
  rate: typeof import("@/lib/relay/rate-limit");
  options: typeof import("@/lib/options/store");
};

beforeAll(async () => {
  server = await startServer();
  admin = await seedUser(server, { username: "root", role: 100 });
  alice = await seedUser(server, { username: "alice" });
  useServerEnvironment(server);
  lib = {
    reserve: await import("@/lib/billing/reserve"),
    settle: await import("@/lib/billing/settle"),
    ledger: await import("@/lib/billing/ledger"),
    db: await import("@/lib/db/client"),
    tokens: await import("@/lib/relay/token-cache"),
    select: await import("@/lib/relay/select"),
    writer: await import("@/lib/logs/writer"),
    rate: await import("@/lib/relay/rate-limit"),
    options: await import("@/lib/options/store"),
  };
});
afterAll(async () => {
  await lib?.db.db().$disconnect();
  await server?.stop();
});

type Tok = { id: number; key: string };
const credit = (userId: number, amount: bigint) =>
  lib.db.db().$transaction((tx) => lib.ledger.changeUserQuota(tx, { userId, delta: amount, kind: "admin_adjust" }));
const balance = async (userId: number) => BigInt(String((await query(server, 'SELECT "quota" FROM "users" WHERE "id" = $1', [userId]))[0].quota));
const ledgerSum = async (userId: number) => {
  const rows = await query(server, 'SELECT "delta" FROM "quota_ledger" WHERE "user_id" = $1', [userId]);
  return rows.reduce((s, r) => s + BigInt(String(r.delta)), 0n);
};
const remain = async (tokenId: number) =>
  BigInt(String((await query(server, 'SELECT "remain_quota" FROM "tokens" WHERE "id" = $1', [tokenId]))[0].remain_quota));

async function newUser(name: string) {
  const u = await seedUser(server, { username: name });
  return u;
}

describe("reservation under concurrency", () => {
  it("lets at most as many reservations through as the user's balance covers", async () => {
    const u = await newUser("racer");
    await credit(u.id, 10_000n);
    const [t] = (await u.client.post<Tok[]>("/api/token/", { name: "race", unlimited_quota: true })).data;
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => lib.reserve.reserve({ userId: u.id, tokenId: t.id, unlimitedToken: true, amount: 1000n })),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    expect(ok.length).toBeLessThanOrEqual(10);
    // every refusal is a quota refusal (asserted below), so exactly the covered ten pass
    expect(ok.length).toBe(10);
    for (const r of refused) {
      expect(r.reason).toMatchObject({ code: "QUOTA_EXCEEDED", key: "quota_insufficient_user" });
    }
    const b = await balance(u.id);
    expect(b).toBeGreaterThanOrEqual(0n);
    expect(b).toBe(10_000n - 1000n * BigInt(ok.length));
    expect(await ledgerSum(u.id)).toBe(b);
  });

  it("lets at most as many through as a limited token covers, and leaves the user untouched on refusal", async () => {
    const u = await newUser("tokenrace");
    await credit(u.id, 1_000_000n);
    const [t] = (await u.client.post<Tok[]>("/api/token/", { name: "small", remain_quota: 3000 })).data;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => lib.reserve.reserve({ userId: u.id, tokenId: t.id, unlimitedToken: false, amount: 1000n })),
    );
    const ok = results.filter((r) => r.status === "fulfilled").length;
    expect(ok).toBeLessThanOrEqual(3);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ key: "quota_insufficient_token" });
    expect(await remain(t.id)).toBe(3000n - 1000n * BigInt(ok));
    expect(await balance(u.id)).toBe(1_000_000n - 1000n * BigInt(ok));
    expect(await ledgerSum(u.id)).toBe(await balance(u.id));
  });
});

describe("settle and refund", () => {
  it("charges the exact cost, counts usage, writes the log, and keeps the ledger equal to the balance", async () => {
    const u = await newUser("settler");
    await credit(u.id, 100_000n);
    const [t] = (await u.client.post<Tok[]>("/api/token/", { name: "bill", remain_quota: 50_000 })).data;
    const ch = (await admin.client.post<{ id: number }>("/api/channel/", { type: 1, name: "billed", key: "k", models: "gpt-4o" })).data;

    // cheaper than reserved: the difference comes back
    const r1 = await lib.reserve.reserve({ userId: u.id, tokenId: t.id, unlimitedToken: false, amount: 5000n });
    await lib.settle.settle(r1, 3000n, {
      channel_id: ch.id,
      channel_name: "billed",
      username: "settler",
      token_name: "bill",
      model_name: "gpt-4o",
      prompt_tokens: 100,
      completion_tokens: 20,
      other: { model_ratio: 1.25, admin_info: { use_channel: [String(ch.id)] } },
    });
    expect(await balance(u.id)).toBe(97_000n);
    expect(await remain(t.id)).toBe(47_000n);
    await expect(lib.settle.settle(r1, 1n, { channel_id: ch.id })).rejects.toThrow(/already settled/);

    // dearer than reserved: the extra is taken
    const r2 = await lib.reserve.reserve({ userId: u.id, tokenId: t.id, unlimitedToken: false, amount: 1000n });
    await lib.settle.settle(r2, 4000n, { channel_id: ch.id, model_name: "gpt-4o" });
    expect(await balance(u.id)).toBe(93_000n);
    expect(await remain(t.id)).toBe(43_000n);

    // failed call: all of it comes back
    const r3 = await lib.reserve.reserve({ userId: u.id, tokenId: t.id, unlimitedToken: false, amount: 7000n });
    expect(await balance(u.id)).toBe(86_000n);
    await lib.settle.refund(r3);
    expect(await balance(u.id)).toBe(93_000n);
    expect(await remain(t.id)).toBe(43_000n);
    await expect(lib.settle.refund(r3)).rejects.toThrow(/already refunded/);

    expect(await ledgerSum(u.id)).toBe(93_000n);
    const kinds = await query(server, 'SELECT "kind", "delta" FROM "quota_ledger" WHERE "user_id" = $1 ORDER BY "id"', [u.id]);
    expect(kinds.map((k) => `${k.kind}:${k.delta}`)).toEqual([
      "admin_adjust:100000",
      "relay_reserve:-5000",
      "relay_settle:2000",
      "relay_reserve:-1000",
      "relay_settle:-3000",
      "relay_reserve:-7000",
      "relay_refund:7000",
    ]);
    const [user] = await query(server, 'SELECT "used_quota", "request_count" FROM "users" WHERE "id" = $1', [u.id]);
    expect(Number(user.used_quota)).toBe(7000);
    expect(Number(user.request_count)).toBe(2);
    const [tok] = await query(server, 'SELECT "used_quota" FROM "tokens" WHERE "id" = $1', [t.id]);
    expect(Number(tok.used_quota)).toBe(7000);
    const [chan] = await query(server, 'SELECT "used_quota" FROM "channels" WHERE "id" = $1', [ch.id]);
    expect(Number(chan.used_quota)).toBe(7000);

    // logs: queued in memory and written by the batch writer within 100 ms; flush what is left
    await lib.writer.flushLogs();
    expect(lib.writer.pendingLogCount()).toBe(0);
    const self = await u.client.get<{ items: Array<Record<string, unknown>>; total: number }>("/api/log/self/?p=1&page_size=10");
    expect(self.data.total).toBe(2);
    const first = self.data.items.find((i) => i.quota === 3000)!;
    expect(first).toMatchObject({ type: 2, model_name: "gpt-4o", prompt_tokens: 100, completion_tokens: 20, token_name: "bill" });
    expect(first).not.toHaveProperty("channel");
    expect(first).not.toHaveProperty("channel_name");
    expect(JSON.parse(String(first.other))).toEqual({ model_ratio: 1.25 });
    const all = await admin.client.get<{ items: Array<Record<string, unknown>> }>(`/api/log/?channel=${ch.id}`);
    expect(all.data.items).toHaveLength(2);
    const adminRow = all.data.items.find((i) => i.quota === 3000)!;
    expect(adminRow.channel).toBe(ch.id);
    expect(JSON.parse(String(adminRow.other)).admin_info).toEqual({ use_channel: [String(ch.id)] });
    const stat = await u.client.get<{ quota: number; rpm: number; tpm: number }>("/api/log/self/stat");
    expect(stat.data).toEqual({ quota: 7000, rpm: 2, tpm: 120, searched_from: null });
    expect((await u.client.get("/api/log/")).status).toBe(403);
    expect((await alice.client.get<{ total: number }>("/api/log/self/")).data.total).toBe(0);
    const filtered = await admin.client.get<{ total: number }>(`/api/log/?model_name=gpt-4o&start_timestamp=${Math.floor(Date.now() / 1000) + 100}`);
    expect(filtered.data.total).toBe(0);
    const del = await admin.client.del<number>(`/api/log/?target_timestamp=${Math.floor(Date.now() / 1000) + 10}`);
    expect(del.data).toBeGreaterThanOrEqual(2);
    const missing = await admin.client.del("/api/log/");
    expect(missing.success).toBe(false);
    expect(missing.message).toBe("Please select the log time");
  });
});

describe("settlement above the reservation", () => {
  it("takes the extra from the user, and from a limited token down to 0 at most", async () => {
    const u = await newUser("overrun");
    await credit(u.id, 20_000n);
    const [t] = (await u.client.post<Tok[]>("/api/token/", { name: "small", remain_quota: 1500 })).data;
    const r = await lib.reserve.reserve({ userId: u.id, tokenId: t.id, unlimitedToken: false, amount: 1000n });
    expect(await remain(t.id)).toBe(500n);
    // the upstream produced more than reserved: 3000 extra, the token has 500 left
    await lib.settle.settle(r, 4000n, { channel_id: 0, model_name: "gpt-4o" });
    expect(await remain(t.id)).toBe(0n);
    expect(await balance(u.id)).toBe(16_000n);
    expect(await ledgerSum(u.id)).toBe(16_000n);
    const [tok] = await query(server, 'SELECT "used_quota", "accessed_time" FROM "tokens" WHERE "id" = $1', [t.id]);
    expect(Number(tok.used_quota)).toBe(4000);
    expect(Number(tok.accessed_time)).toBeGreaterThan(0);

    // an unlimited token keeps its remaining quota and still counts its usage
    const [free] = (await u.client.post<Tok[]>("/api/token/", { name: "free", unlimited_quota: true, remain_quota: 77 })).data;
    const r2 = await lib.reserve.reserve({ userId: u.id, tokenId: free.id, unlimitedToken: true, amount: 1000n });
    await lib.settle.settle(r2, 2500n, { channel_id: 0, model_name: "gpt-4o" });
    expect(await remain(free.id)).toBe(77n);
    const [f] = await query(server, 'SELECT "used_quota" FROM "tokens" WHERE "id" = $1', [free.id]);
    expect(Number(f.used_quota)).toBe(2500);
    expect(await balance(u.id)).toBe(13_500n);
    expect(await ledgerSum(u.id)).toBe(13_500n);
  });
});

describe("authenticateToken", () => {
  it("accepts a valid key in any accepted form and refuses with the documented reasons", async () => {
    const [t] = (
      await alice.client.post<Tok[]>("/api/token/", {
        name: "relay",
        remain_quota: 1000,
        model_limits_enabled: true,
        model_limits: "gpt-4o",
        allow_ips: "10.0.0.0/8\n127.0.0.1",
      })
    ).data;
    const ctx = await lib.tokens.authenticateToken(`Bearer ${t.key}`, { ip: "10.1.2.3", model: "gpt-4o" });
    expect(ctx).toMatchObject({ group: "default", pinnedChannelId: null, user: { id: alice.id }, token: { id: t.id } });
    await lib.tokens.authenticateToken(t.key.slice(3), { ip: "127.0.0.1" });
    const reason = async (key: string | null, ip = "127.0.0.1", model?: string) =>
      lib.tokens.authenticateToken(key, { ip, model }).then(
        () => "ok",
        (e) => `${e.code}:${e.key}`,
      );
    expect(await reason(null)).toBe("UNAUTHENTICATED:token_missing");
    expect(await reason("Bearer ")).toBe("UNAUTHENTICATED:token_missing");
    expect(await reason("sk-" + "x".repeat(48))).toBe("UNAUTHENTICATED:token_invalid");
    expect(await reason(t.key, "192.168.1.1")).toBe("FORBIDDEN:token_ip_not_allowed");
    expect(await reason(t.key, "127.0.0.1", "claude-3")).toBe("FORBIDDEN:token_model_not_allowed");
    expect(await reason(`${t.key}-5`)).toBe("FORBIDDEN:cannot_specify_channel");

    // console writes reach the relay's cache on this node through invalidation
    await alice.client.put("/api/token/?status_only=true", { id: t.id, status: 2 });
    lib.tokens.invalidateTokenCache(); // another process (the server) made the change
    expect(await reason(t.key)).toBe("UNAUTHENTICATED:token_unavailable");

    const [old] = (await alice.client.post<Tok[]>("/api/token/", { name: "old", remain_quota: 10 })).data;
    await query(server, 'UPDATE "tokens" SET "expired_time" = $1 WHERE "id" = $2', [Math.floor(Date.now() / 1000) - 1, old.id]);
    expect(await reason(old.key)).toBe("UNAUTHENTICATED:token_expired");
    const [empty] = (await alice.client.post<Tok[]>("/api/token/", { name: "empty", remain_quota: 0 })).data;
    expect(await reason(empty.key)).toBe("UNAUTHENTICATED:token_exhausted");
    await new Promise((r) => setTimeout(r, 300)); // the status write is fire-and-forget
    const statuses = await query(server, 'SELECT "id", "status" FROM "tokens" WHERE "id" IN ($1, $2) ORDER BY "id"', [old.id, empty.id]);
    expect(statuses.map((s) => Number(s.status))).toEqual([3, 4]);

    const [adminTok] = (await admin.client.post<Tok[]>("/api/token/", { name: "pin", unlimited_quota: true })).data;
    const pinned = await lib.tokens.authenticateToken(`${adminTok.key}-42`, { ip: "127.0.0.1" });
    expect(pinned.pinnedChannelId).toBe(42);

    await query(server, 'UPDATE "users" SET "status" = 2 WHERE "id" = $1', [alice.id]);
    lib.tokens.invalidateUserTokens(alice.id);
    const [ok] = (await alice.client.post<Tok[]>("/api/token/", { name: "x" })).data ?? [];
    expect(ok).toBeUndefined(); // banned users cannot use the console either
    await query(server, 'UPDATE "users" SET "status" = 1 WHERE "id" = $1', [alice.id]);
  });
});

describe("selectChannel", () => {
  it("routes by group and model through priority tiers, exclusions, mapping and the decrypted key", async () => {
    const mk = async (name: string, body: Record<string, unknown>) =>
      (await admin.client.post<{ id: number }>("/api/channel/", { type: 1, key: `key-of-${name}`, models: "route-model", group: "rt", ...body, name })).data.id;
    const high = await mk("high", { priority: 10, weight: 1, model_mapping: { "route-model": "upstream-model" } });
    const high2 = await mk("high2", { priority: 10, weight: 0 });
    const low = await mk("low", { priority: 1, weight: 5 });
    await mk("disabled", { priority: 100, status: 2 });
    const elsewhere = await mk("other-group", { priority: 100, group: "elsewhere" });
    const { invalidateChannelCache } = await import("@/lib/channels/channel-cache");
    invalidateChannelCache();

    for (let i = 0; i < 20; i++) {
      const c = await lib.select.selectChannel({ group: "rt", model: "route-model" });
      expect(c?.id).toBe(high); // weight 0 loses to weight 1 in the same tier
    }
    const c = (await lib.select.selectChannel({ group: "rt", model: "route-model" }))!;
    expect(c).toMatchObject({ name: "high", key: "key-of-high", upstreamModel: "upstream-model", group: "rt", priority: 10, type: 1 });
    expect((await lib.select.selectChannel({ group: "rt", model: "route-model", exclude: new Set([high]) }))?.id).toBe(high2);
    const third = await lib.select.selectChannel({ group: "rt", model: "route-model", exclude: new Set([high, high2]) });
    expect(third).toMatchObject({ id: low, upstreamModel: "route-model", key: "key-of-low" });
    expect(await lib.select.selectChannel({ group: "rt", model: "route-model", exclude: new Set([high, high2, low]) })).toBeNull();
    expect(await lib.select.selectChannel({ group: "rt", model: "nope" })).toBeNull();
    expect(await lib.select.selectChannel({ group: "nope", model: "route-model" })).toBeNull();

    const pinned = await lib.select.pinnedChannel(low, "route-model", "rt");
    expect(pinned.id).toBe(low);
    await expect(lib.select.pinnedChannel(999999, "m", "rt")).rejects.toMatchObject({ key: "channel_not_found" });

    // the server drops its own cache on every write: its model list follows at once
    const before = await admin.client.get<string[]>("/api/channel/models_enabled");
    expect(before.data).toContain("route-model");
    await admin.client.post("/api/channel/batch", { ids: [high, high2, low, elsewhere] });
    const after = await admin.client.get<string[]>("/api/channel/models_enabled");
    expect(after.data).not.toContain("route-model");
  });
});

describe("pricing and model lists", () => {
  it("serves the public pricing table, with the default group for visitors", async () => {
    await admin.client.post("/api/channel/", { type: 1, name: "priced", key: "k", models: "priced-model", group: "default,vip" });
    const anon = await (await fetch(server.url + "/api/pricing")).json();
    expect(anon.success).toBe(true);
    const row = anon.data.find((r: { model_name: string }) => r.model_name === "priced-model");
    expect(row).toMatchObject({ quota_type: 0, enable_groups: ["default", "vip"], completion_ratio: 1 });
    expect(Object.keys(anon.usable_group)).toEqual(["default"]);
    expect(anon.group_ratio).toMatchObject({ default: 1, vip: 1 });
    const mine = await alice.client.get<unknown>("/api/pricing");
    expect(Object.keys((mine as unknown as { usable_group: Record<string, string> }).usable_group).sort()).toEqual(["default", "vip"]);
    const { enabledModels, invalidateChannelCache } = await import("@/lib/channels/channel-cache");
    invalidateChannelCache(); // the channel was created by the server process
    expect(await enabledModels(["vip"])).toContain("priced-model");
    expect(await enabledModels(["nobody"])).toEqual([]);
    expect((await alice.client.get("/api/models")).status).toBe(403);
  });
});

describe("relay rate limits", () => {
  it("limits a token's requests and successes per period", async () => {
    const subject = {
      userId: 1,
      group: "default",
      token: { id: 777001, rate_limit_enabled: true, rate_limit_period: 60, rate_limit_count: 3, rate_limit_success: 2 },
    };
    await lib.rate.checkRateLimit(subject);
    await lib.rate.recordSuccess(subject);
    await lib.rate.checkRateLimit(subject);
    await lib.rate.recordSuccess(subject);
    await expect(lib.rate.checkRateLimit(subject)).rejects.toMatchObject({ code: "RATE_LIMITED", key: "token_rate_limited" });
    const total = { ...subject, token: { ...subject.token, id: 777002, rate_limit_success: 0 } };
    for (let i = 0; i < 3; i++) await lib.rate.checkRateLimit(total);
    await expect(lib.rate.checkRateLimit(total)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    const off = { ...subject, token: { ...subject.token, id: 777003, rate_limit_enabled: false } };
    for (let i = 0; i < 10; i++) await lib.rate.checkRateLimit(off);
  });

  it("applies ModelRequestRateLimit* per user, except for the exempt group", async () => {
    lib.options.applyOption("ModelRequestRateLimitEnabled", "true");
    lib.options.applyOption("ModelRequestRateLimitCount", "2");
    lib.options.applyOption("global.rate_limit_exempt_enabled", "true");
    const s = (userId: number, group: string) => ({
      userId,
      group,
      token: { id: 1, rate_limit_enabled: false, rate_limit_period: 60, rate_limit_count: 0, rate_limit_success: 0 },
    });
    await lib.rate.checkRateLimit(s(888001, "default"));
    await lib.rate.checkRateLimit(s(888001, "default"));
    await expect(lib.rate.checkRateLimit(s(888001, "default"))).rejects.toMatchObject({ key: "model_rate_limited" });
    for (let i = 0; i < 5; i++) await lib.rate.checkRateLimit(s(888002, "bulk-ok"));
    lib.options.applyOption("ModelRequestRateLimitEnabled", "false");
  });
});
