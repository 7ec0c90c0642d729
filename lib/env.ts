// All configuration, read once from the environment and validated. Secrets that are not
// given are generated on first run and kept in the data directory, so that a restart keeps
// sessions and encrypted keys valid.
import "server-only";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

// The period of an optional periodic job, in minutes (new-api's CHANNEL_TEST_FREQUENCY and
// CHANNEL_UPDATE_FREQUENCY): unset, empty or 0 turns the job off; a decimal is allowed (0.5 is
// 30 s). At least 0.01 (0.6 s), so that a typo cannot make a job hammer the upstreams, and at
// most a week.
const FREQUENCY_MESSAGE = "must be a number of minutes between 0.01 and 10080, such as 10 or 0.5 (unset or 0 turns the job off)";
const frequencyMinutes = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? Number(v.trim()) : 0))
  .refine((n) => n === 0 || (Number.isFinite(n) && n >= 0.01 && n <= 10_080), FREQUENCY_MESSAGE);

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOSTNAME: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().optional(),
  // The usage logs (and the dashboard's rollups of them) in a database of their own, of the
  // same kind as DATABASE_URL; unset, they stay in the main database (docs/operations.md,
  // "Logs at scale").
  LOG_DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters").optional(),
  ENCRYPTION_KEY: z.string().min(32, "ENCRYPTION_KEY must be at least 32 characters").optional(),
  REDIS_URL: z.string().optional(),
  // Prefix of every Redis key and channel, so that several deployments can share a Redis.
  REDIS_PREFIX: z.string().default("gw:"),
  // Login, register and other sensitive calls: at most N per window per client address.
  CRITICAL_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  CRITICAL_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(1200),
  // GET /mj/image/{id} (open, MjForwardUrlEnabled): at most N a minute per client address.
  MJ_IMAGE_RATE_LIMIT: z.coerce.number().int().min(1).default(120),
  // Trust X-Forwarded-Proto from a reverse proxy in front of us (the client address follows
  // the option ReverseProxyEnabled instead: lib/http/client-address.ts).
  TRUST_PROXY: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  MIGRATIONS_DIR: z.string().default("./prisma/migrations"),
  // This node's id for quota holds (docs/operations.md, "Node id"): unique per node, the same
  // across its restarts. Unset: derived from the host name, PORT and DATA_DIR.
  NODE_ID: z
    .string()
    .max(200)
    .optional()
    .transform((v) => v?.trim() || undefined),
  // Largest relay request body (base64 images and audio uploads are large).
  RELAY_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(32 * 1024 * 1024),
  // Most JSON structural characters ({ [ , :) and object keys in a relay body: parsing cost
  // grows with them, and parsing holds every other call (docs/limits.md).
  RELAY_MAX_JSON_TOKENS: z.coerce.number().int().min(1000).default(200_000),
  RELAY_MAX_JSON_KEYS: z.coerce.number().int().min(100).default(20_000),
  // the task poller (docs/tasks.md): seconds between polls of an unfinished task, and how long
  // a task may stay unfinished before it is failed and refunded
  TASK_POLL_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  TASK_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(5)
    .max(30 * 86400)
    .default(3 * 3600),
  // The length of the rolling quota window (`quota_5h`, docs/usage-limits.md): 5 hours; a
  // deployment may shorten it, and the tests do (6 s) to see it count and free on time.
  LIMITS_ROLLING_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(31 * 86400)
    .default(5 * 3600),
  // How long a concurrency hold outlives its node's last refresh (docs/usage-limits.md,
  // "Concurrency"): a crashed node's calls stop counting within it. 30 s; the three-node test
  // shortens it to see a killed node's holds expire.
  LIMITS_HOLD_TTL_SECONDS: z.coerce.number().int().min(3).max(3600).default(30),
  // Where the Stripe client sends its API calls instead of https://api.stripe.com (a local
  // mock in the tests): protocol, host and port of this URL (docs/payments.md).
  STRIPE_API_BASE: z.string().url().optional(),
  // Third-party sign-in and the human check: each provider's base URL, pointed at a local
  // server speaking its protocol in the tests (docs/oauth.md).
  GITHUB_OAUTH_URL: z.string().url().default("https://github.com"),
  GITHUB_API_URL: z.string().url().default("https://api.github.com"),
  LINUXDO_URL: z.string().url().default("https://connect.linux.do"),
  IDCFLARE_URL: z.string().url().default("https://connect.idcflare.com"),
  // GET /metrics (Prometheus) answers only with "Authorization: Bearer <METRICS_TOKEN>"; unset
  // or empty, the endpoint is off (404). docs/operations.md.
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  // The server log's level (lib/logger, docs/operations.md "Logs"): fatal, error, warn, info,
  // debug, trace or silent. Read by the logger itself; validated here so that a typo stops
  // the start instead of silently logging at info.
  LOG_LEVEL: z
    .string()
    .optional()
    .transform((v) => v?.trim().toLowerCase() || "info")
    .pipe(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])),
  TURNSTILE_VERIFY_URL: z.string().url().default("https://challenges.cloudflare.com/turnstile/v0/siteverify"),
  // Graceful shutdown (docs/deploy.md): after SIGTERM the node keeps serving for
  // SHUTDOWN_DRAIN_DELAY_MS while /readyz answers 503 (so a load balancer takes it out before
  // connections are refused), then stops accepting and gives the calls under way up to
  // SHUTDOWN_GRACE_MS to finish before cutting them (a cut call is settled or refunded as any
  // aborted call is).
  SHUTDOWN_DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(300_000).default(0),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  // A node whose heartbeat is this old is taken for dead and its holds are refunded by the
  // cluster's sweeper; it beats every quarter of it and the sweeper runs every period
  // (lib/billing/holds.ts, docs/channels-tokens-billing.md "Holds").
  // The longest an upstream answer may go silent once its headers came (between two chunks of
  // a stream, or of any body); then the call is cut and settled or refunded as any broken
  // stream is. 0: no limit. The wait for the headers has its own bound (lib/relay/pipeline.ts
  // DEFAULT_TIMEOUT_MS). new-api's variable of the same name and meaning.
  STREAMING_TIMEOUT: z.coerce.number().int().min(0).max(86_400).default(300),
  HOLD_NODE_DEAD_SECONDS: z.coerce.number().int().min(4).max(3600).default(60),
  // How often the subscription plans' job looks for periods to renew and terms that ended
  // (docs/plans.md, "Periodic job"); the pots themselves refuse a charge past their end at once.
  PLAN_JOB_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // Periodic channel jobs, once per cluster per period (lib/channel-admin/periodic-jobs.ts,
  // docs/operations.md "Periodic jobs and their leases"): every channel tested as by "test
  // all", and every channel's balance refreshed as by "update all balances". Minutes; off by default.
  // How often each node's audit-log retention job runs (docs/audit.md, "Retention"); the rows
  // older than the option AuditLogRetentionDays go, once per cluster.
  AUDIT_RETENTION_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  CHANNEL_TEST_FREQUENCY: frequencyMinutes,
  CHANNEL_UPDATE_FREQUENCY: frequencyMinutes,
});

export type Env = z.infer<typeof schema> & {
  DATABASE_URL: string;
  SESSION_SECRET: string;
  ENCRYPTION_KEY: string;
  databaseKind: "sqlite" | "postgresql";
  // LOG_DATABASE_URL when set, else DATABASE_URL
  logDatabaseUrl: string;
  logsSeparate: boolean;
};

function persistedSecret(dataDir: string, file: string): string {
  const target = path.join(dataDir, file);
  if (existsSync(target)) return readFileSync(target, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(target, secret + "\n", { mode: 0o600 });
  return secret;
}

function load(): Env {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${detail}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const databaseUrl = e.DATABASE_URL || `file:${path.join(dataDir, "gateway.db")}`;
  const kind = /^postgres(ql)?:\/\//.test(databaseUrl) ? "postgresql" : "sqlite";
  if (kind === "sqlite" && !databaseUrl.startsWith("file:")) {
    throw new Error("Invalid configuration: DATABASE_URL must be file:<path> (SQLite) or postgresql://...");
  }
  const logUrl = e.LOG_DATABASE_URL ?? databaseUrl;
  const logKind = /^postgres(ql)?:\/\//.test(logUrl) ? "postgresql" : logUrl.startsWith("file:") ? "sqlite" : null;
  if (logKind !== kind) {
    throw new Error(
      `Invalid configuration: LOG_DATABASE_URL must be a database of the same kind as DATABASE_URL (${kind === "sqlite" ? "file:<path>" : "postgresql://..."})`,
    );
  }
  return {
    ...e,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    logDatabaseUrl: logUrl,
    logsSeparate: logUrl !== databaseUrl,
    SESSION_SECRET: e.SESSION_SECRET ?? persistedSecret(dataDir, "session-secret"),
    ENCRYPTION_KEY: e.ENCRYPTION_KEY ?? persistedSecret(dataDir, "encryption-key"),
    databaseKind: kind,
  };
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= load();
  return cached;
}
