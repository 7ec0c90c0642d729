// Where the relay's per-call time goes in billing: times, in-process and sequentially, the
// database work one relayed call does (lib/billing reserve() before the upstream call,
// settle() after it), single Prisma queries, and the same SQL statements run directly on
// better-sqlite3 prepared statements, on a fresh SQLite database of the program's schema.
//
//   npx tsx bench/billing-cost.mts [--n=300]
//
// Diagnostic only (no server, no network); the figures are printed, not written anywhere.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

const N = Math.min(5000, Math.max(20, Number(process.argv.find((a) => a.startsWith("--n="))?.slice(4) ?? 300)));
const dir = mkdtempSync(path.join(os.tmpdir(), "gw-billing-cost-"));
process.env.DATA_DIR = dir;
process.env.DATABASE_URL = `file:${path.join(dir, "gateway.db")}`;

type Row = { name: string; perCallMs: number; p50Ms: number; p99Ms: number; n: number };
const rows: Row[] = [];

async function time(name: string, fn: () => Promise<unknown> | unknown): Promise<void> {
  for (let i = 0; i < Math.min(50, N); i++) await fn(); // warm-up (JIT, statement caches)
  const samples: number[] = [];
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const s = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  const total = Number(process.hrtime.bigint() - t0) / 1e6;
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)];
  rows.push({ name, perCallMs: total / N, p50Ms: at(50), p99Ms: at(99), n: N });
}

try {
  const { ensureReady } = await import("@/lib/boot");
  await ensureReady();
  const { db } = await import("@/lib/db/client");
  const { reserve } = await import("@/lib/billing/reserve");
  const { settle } = await import("@/lib/billing/settle");
  const now = BigInt(Math.floor(Date.now() / 1000));
  const user = await db().user.create({ data: { username: "cost", password: "x", aff_code: "cost-aff", quota: 10n ** 12n, created_time: now } });
  const token = await db().token.create({ data: { user_id: user.id, name: "cost", key_hash: "cost-hash", key_cipher: "x", remain_quota: 10n ** 12n } });
  const channel = await db().channel.create({ data: { name: "cost", models: "gpt-bench" } });
  const log = {
    username: "cost",
    token_name: "cost",
    token_id: token.id,
    model_name: "gpt-bench",
    use_time: 0,
    is_stream: false,
    channel_id: channel.id,
    channel_name: "cost",
    group: "default",
    ip: "",
    request_id: "",
    prompt_tokens: 12,
    completion_tokens: 6,
  };

  await time("prisma: token.findUnique (1 SELECT)", () => db().token.findUnique({ where: { id: token.id }, select: { remain_quota: true } }));
  await time("prisma: token.updateMany conditional (1 UPDATE)", () =>
    db().token.updateMany({ where: { id: token.id, remain_quota: { gte: 1n } }, data: { remain_quota: { decrement: 1n } } }),
  );
  await time("prisma: empty interactive $transaction", () => db().$transaction(async () => {}));
  await time("lib/billing reserve() (transaction, 5 statements)", () => reserve({ userId: user.id, tokenId: token.id, unlimitedToken: false, amount: 40n }));
  const open: Awaited<ReturnType<typeof reserve>>[] = [];
  for (let i = 0; i < N + 50; i++) open.push(await reserve({ userId: user.id, tokenId: token.id, unlimitedToken: false, amount: 40n }));
  await time("lib/billing settle() (transaction, 8 statements; log queued)", () => settle(open.pop()!, 24n, log));

  // settle() queued consume logs: write them now, so that no Prisma write is in flight
  // while the synchronous connection below holds the lock (one thread: it would deadlock).
  await (await import("@/lib/lifecycle")).flushAll();

  // The same statements as reserve() + settle(), straight on better-sqlite3.
  const sqlite = new Database(path.join(dir, "gateway.db"));
  sqlite.pragma("busy_timeout = 5000");
  const st = {
    tokenDebit: sqlite.prepare('UPDATE "tokens" SET "remain_quota" = "remain_quota" - ? WHERE "id" = ? AND "remain_quota" >= ?'),
    tokenCredit: sqlite.prepare('UPDATE "tokens" SET "remain_quota" = "remain_quota" + ? WHERE "id" = ?'),
    tokenRemain: sqlite.prepare('SELECT "remain_quota" FROM "tokens" WHERE "id" = ?'),
    userDebit: sqlite.prepare('UPDATE "users" SET "quota" = "quota" + ? WHERE "id" = ? AND "quota" >= ?'),
    userChange: sqlite.prepare('UPDATE "users" SET "quota" = "quota" + ? WHERE "id" = ?'),
    userQuota: sqlite.prepare('SELECT "quota" FROM "users" WHERE "id" = ?'),
    ledger: sqlite.prepare(
      'INSERT INTO "quota_ledger" ("user_id", "token_id", "delta", "balance_after", "kind", "ref", "created_at") VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    userUsed: sqlite.prepare('UPDATE "users" SET "used_quota" = "used_quota" + ?, "request_count" = "request_count" + 1 WHERE "id" = ?'),
    tokenUsed: sqlite.prepare('UPDATE "tokens" SET "used_quota" = "used_quota" + ?, "accessed_time" = ? WHERE "id" = ?'),
    channelUsed: sqlite.prepare('UPDATE "channels" SET "used_quota" = "used_quota" + ? WHERE "id" = ?'),
  };
  const ts = Number(now);
  const rawReserve = sqlite.transaction((amount: number) => {
    if (st.tokenDebit.run(amount, token.id, amount).changes !== 1) throw new Error("token quota");
    st.tokenRemain.get(token.id);
    if (st.userDebit.run(-amount, user.id, amount).changes !== 1) throw new Error("user quota");
    const q = (st.userQuota.get(user.id) as { quota: number }).quota;
    st.ledger.run(user.id, token.id, -amount, q, "relay_reserve", "ref", ts);
  });
  const rawSettle = sqlite.transaction((reserved: number, actual: number) => {
    const delta = actual - reserved;
    st.userChange.run(-delta, user.id);
    const q = (st.userQuota.get(user.id) as { quota: number }).quota;
    st.ledger.run(user.id, token.id, -delta, q, "relay_settle", "ref", ts);
    st.tokenCredit.run(-delta, token.id);
    st.tokenRemain.get(token.id);
    st.userUsed.run(actual, user.id);
    st.tokenUsed.run(actual, ts, token.id);
    st.channelUsed.run(actual, channel.id);
  });
  await time("better-sqlite3: reserve's statements in one transaction", () => rawReserve(40));
  await time("better-sqlite3: settle's statements in one transaction", () => rawSettle(40, 24));
  sqlite.close();
  await db().$disconnect();

  const w = Math.max(...rows.map((r) => r.name.length));
  console.log(
    `sequential, ${N} calls each after a warm-up, fresh SQLite database (WAL as the program sets it), node ${process.version}, load ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
  console.log(`${"".padEnd(w)}  mean ms   p50 ms   p99 ms`);
  for (const r of rows)
    console.log(`${r.name.padEnd(w)}  ${r.perCallMs.toFixed(3).padStart(7)}  ${r.p50Ms.toFixed(3).padStart(7)}  ${r.p99Ms.toFixed(3).padStart(7)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
