// The operator's endpoints, answered by server.ts's node:http server before Next (like the
// relay): GET /healthz (the process is alive), GET /readyz (it can serve: database reachable
// and migrated (the log database too, when it is separate), Redis reachable when configured, not shutting down) and GET /metrics
// (Prometheus text, behind METRICS_TOKEN). docs/operations.md describes them.
import "server-only";
import { logger } from "@/lib/logger";
import { createHash, timingSafeEqual } from "node:crypto";
import { readdirSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import { billingQueueDepth } from "@/lib/billing/store";
import { redis } from "@/lib/cache/redis";
import { db, logDb, sqlitePath, type Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { describeError } from "@/lib/errors";
import { isDraining } from "@/lib/lifecycle";
import { pendingLogCount } from "@/lib/logs/writer";
import { metrics, setDbPoolSource, setQueueDepthSources } from "@/lib/metrics";
import { pgPoolStats } from "@/lib/db/raw";

const log = logger("readyz");

export type OpsEndpoint = "healthz" | "readyz" | "metrics";

// The endpoint a request's URL names (a query string ignored), or null. Every request asks
// first, relay calls included: three prefix comparisons, nothing allocated.
export function opsEndpoint(url: string): OpsEndpoint | null {
  const which: OpsEndpoint | null = url.startsWith("/healthz")
    ? "healthz"
    : url.startsWith("/readyz")
      ? "readyz"
      : url.startsWith("/metrics")
        ? "metrics"
        : null;
  if (!which) return null;
  const end = which.length + 1;
  return url.length === end || url.charCodeAt(end) === 63 /* ? */ ? which : null;
}

export async function handleOps(which: OpsEndpoint, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" });
    res.end("method not allowed");
    return;
  }
  if (which === "healthz") return send(res, 200, { status: "ok" });
  if (which === "readyz") {
    const r = await readiness();
    return send(res, r.ok ? 200 : 503, r.body);
  }
  return serveMetrics(req, res);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  // a probe's answer is never cached by a proxy in between
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), "cache-control": "no-store" });
  res.end(res.req.method === "HEAD" ? undefined : text);
}

// ---- /readyz

// Each check answers within this bound or counts as failed: a hung database or Redis makes
// the node unready at once instead of hanging the load balancer's probe.
export const READY_CHECK_TIMEOUT_MS = 2000;

type CheckResult = "ok" | "failed" | "timeout" | "not configured" | string;
type Readiness = { ok: boolean; body: { status: "ok" | "unavailable" | "draining"; checks?: Record<string, CheckResult>; failed?: string[] } };

function bounded<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout()), READY_CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
class CheckTimeout extends Error {}

// The migration files this program ships (read once: they do not change while it runs).
let shipped: string[] | undefined;
function shippedMigrations(): string[] {
  if (!shipped) {
    const e = env();
    shipped = readdirSync(path.resolve(e.MIGRATIONS_DIR, e.databaseKind))
      .filter((f) => f.endsWith(".sql"))
      .sort();
  }
  return shipped;
}

// The SQLite file the connection opened, by inode. On Linux an open connection keeps
// answering from a file that was deleted or renamed (or replaced) under it, while every new
// connection and every backup would see another file: that node is not ready either.
const sqliteInodes = new Map<string, number>();
async function sqliteFileCheck(url: string): Promise<void> {
  const s = await stat(sqlitePath(url));
  const first = sqliteInodes.get(url);
  if (first === undefined) sqliteInodes.set(url, s.ino);
  else if (s.ino !== first) throw new Error("the database file was replaced");
}

// The databases a node needs: the main one, and the log database when LOG_DATABASE_URL
// names one of its own (migrated at start-up like the main one: lib/db/migrate.ts).
function databases(): { check: string; url: string; client: () => Db }[] {
  const e = env();
  const list = [{ check: "database", url: e.DATABASE_URL, client: db }];
  if (e.logsSeparate) list.push({ check: "log_database", url: e.logDatabaseUrl, client: logDb });
  return list;
}

// Called once at start-up, after the migrations: notes the SQLite files' inodes and the
// migration list, so that a later readiness check compares against what was opened, and
// starts the process metrics when /metrics is on.
export async function initOps(): Promise<void> {
  shippedMigrations();
  if (env().databaseKind === "sqlite") for (const d of databases()) await sqliteFileCheck(d.url);
  if (env().METRICS_TOKEN) metrics().collectProcessMetrics();
}

async function databaseCheck(checks: Record<string, CheckResult>, d: ReturnType<typeof databases>[number]): Promise<void> {
  const migrations = d.check === "database" ? "migrations" : "log_migrations";
  try {
    if (env().databaseKind === "sqlite") await bounded(sqliteFileCheck(d.url));
    const rows = await bounded(d.client().$queryRawUnsafe<{ name: string }[]>('SELECT "name" FROM "_migrations"'));
    checks[d.check] = "ok";
    const applied = new Set(rows.map((r) => r.name));
    const missing = shippedMigrations().filter((f) => !applied.has(f)).length;
    checks[migrations] = missing ? `${missing} pending` : "ok";
  } catch (err) {
    checks[d.check] = err instanceof CheckTimeout ? "timeout" : "failed";
    checks[migrations] = "unknown";
    noteFailure(d.check, err);
  }
}

async function redisCheck(checks: Record<string, CheckResult>): Promise<void> {
  const r = redis();
  if (!r) {
    checks.redis = "not configured";
    return;
  }
  if (r.status !== "ready") {
    // reconnecting: answered at once (lib/cache/redis.ts logs the connection's error)
    checks.redis = "failed";
    failing.add("redis");
    return;
  }
  try {
    const pong = await bounded(r.ping());
    checks.redis = pong === "PONG" ? "ok" : "failed";
  } catch (err) {
    checks.redis = err instanceof CheckTimeout ? "timeout" : "failed";
    noteFailure("redis", err);
  }
}

// A failing dependency is logged once when it starts failing, not on every probe; the
// probe's answer names the check but never the error (it is served without authentication).
const failing = new Set<string>();
function noteFailure(check: string, err: unknown): void {
  if (failing.has(check)) return;
  failing.add(check);
  log.error({ check, error: err instanceof CheckTimeout ? `no answer within ${READY_CHECK_TIMEOUT_MS} ms` : describeError(err) }, "readiness check failed");
}

// Probes arriving while a check runs share its answer: a hung database does not pile up one
// query per probe.
let inflight: Promise<Readiness> | undefined;
function readiness(): Promise<Readiness> {
  if (isDraining()) return Promise.resolve({ ok: false, body: { status: "draining" } });
  inflight ??= (async (): Promise<Readiness> => {
    const checks: Record<string, CheckResult> = {};
    await Promise.all([...databases().map((d) => databaseCheck(checks, d)), redisCheck(checks)]);
    const failed = Object.keys(checks).filter((k) => checks[k] !== "ok" && checks[k] !== "not configured");
    for (const k of Object.keys(checks)) if (!failed.includes(k)) failing.delete(k);
    if (!failed.length) return { ok: true, body: { status: "ok", checks } };
    return { ok: false, body: { status: "unavailable", checks, failed } };
  })().finally(() => {
    inflight = undefined;
  });
  return inflight;
}

// ---- /metrics

setQueueDepthSources({ billing: billingQueueDepth, logs: pendingLogCount });
setDbPoolSource(pgPoolStats);

// Compared as SHA-256 digests: equal lengths for timingSafeEqual, and the time taken says
// nothing about the token's length or content.
const digest = (s: string) => createHash("sha256").update(s).digest();

async function serveMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const token = env().METRICS_TOKEN;
  if (!token) {
    // off: answered as if the path did not exist
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found");
    return;
  }
  const header = req.headers.authorization ?? "";
  const given = header.startsWith("Bearer ") ? header.slice(7) : "";
  if (!timingSafeEqual(digest(given), digest(token))) {
    res.writeHead(401, { "content-type": "text/plain", "www-authenticate": 'Bearer realm="metrics"' });
    res.end("unauthorized");
    return;
  }
  const registry = metrics().registry;
  const text = await registry.metrics();
  res.writeHead(200, { "content-type": registry.contentType, "content-length": Buffer.byteLength(text), "cache-control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : text);
}
