// Test seeding without the accounts API: opens the test server's database directly
// (better-sqlite3 or pg), inserts users and options, and records and seals a session the way the
// server does (iron-session under the HKDF-derived session key of the server's DATA_DIR
// secret; see lib/auth/keys.ts and lib/auth/session.ts). Options written here are read by
// the server only at start-up or after an options reload, so set them before requests
// that depend on them only through the in-process helpers, or restart.
import { hkdfSync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { sealData } from "iron-session";
import { hashPassword } from "@/lib/auth/password";
import { passwordVersion } from "@/lib/auth/session";
import type { TestServer } from "./server";
import { ApiClient } from "./client";

async function exec(server: TestServer, sql: string, params: unknown[]): Promise<Array<Record<string, unknown>>> {
  if (server.dbKind === "sqlite") {
    const conn = new Database(server.databaseUrl.replace(/^file:/, ""));
    try {
      const stmt = conn.prepare(sql.replace(/\$\d+/g, "?"));
      return stmt.reader ? (stmt.all(...params) as Array<Record<string, unknown>>) : (stmt.run(...params), []);
    } finally {
      conn.close();
    }
  }
  const c = new pg.Client({ connectionString: server.databaseUrl });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows;
  } finally {
    await c.end();
  }
}

export async function query(server: TestServer, sql: string, params: unknown[] = []) {
  return exec(server, sql, params);
}

export type SeededUser = { id: number; username: string; password: string; client: ApiClient };

export async function seedUser(
  server: TestServer,
  input: { username: string; role?: number; group?: string; quota?: number; status?: number; allowPrivateIp?: boolean },
): Promise<SeededUser> {
  const password = "password-" + randomBytes(4).toString("hex");
  const hash = await hashPassword(password);
  const now = Math.floor(Date.now() / 1000);
  const rows = await exec(
    server,
    'INSERT INTO "users" ("username", "password", "role", "status", "group", "quota", "aff_code", "created_time") VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING "id"',
    [input.username, hash, input.role ?? 1, input.status ?? 1, input.group ?? "default", input.quota ?? 0, randomBytes(6).toString("hex"), now],
  );
  const id = Number(rows[0].id);
  if (input.role && input.role >= 100) {
    await exec(server, 'INSERT INTO "setups" ("version", "initialized_at") VALUES ($1, $2)', ["test", now]);
  }
  const client = new ApiClient(server.url, "en");
  client.cookie = "session=" + (await sessionFor(server, id, hash));
  client.userId = id;
  if (input.role && input.role >= 100 && input.allowPrivateIp !== false) {
    // a seeded root turns on fetch_setting.allow_private_ip (the mock upstreams are on
    // 127.0.0.1; docs/outbound.md) through the API, so the running server sees it at once
    const r = await client.put("/api/option/", { key: "fetch_setting.allow_private_ip", value: "true" });
    if (!r.success) throw new Error(`option fetch_setting.allow_private_ip refused: ${r.message}`);
  }
  return { id, username: input.username, password, client };
}

// The session's record goes in as a sign-in writes it (docs/accounts-api.md, "Sessions"):
// the server refuses a cookie whose session id it does not know.
export async function sessionFor(server: TestServer, uid: number, passwordHash: string): Promise<string> {
  const secret = readFileSync(path.join(server.dataDir, "session-secret"), "utf8").trim();
  const key = Buffer.from(hkdfSync("sha256", secret, "ai-gateway", "session", 32)).toString("base64");
  const sid = randomBytes(32).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const ttl = 30 * 24 * 3600;
  await exec(
    server,
    'INSERT INTO "sessions" ("id", "user_id", "created_at", "last_seen_at", "expires_at", "ip", "user_agent") VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [sid, uid, now, now, now + ttl, "127.0.0.1", "seed"],
  );
  return sealData({ uid, pv: passwordVersion(passwordHash), iat: now, sid }, { password: key, ttl });
}

// Points this test process's lib/ code (db(), env()) at the test server's database and
// secrets, so that verbs can be called in-process against the same data. Call before the
// first dynamic import of lib modules that touch env().
export function useServerEnvironment(server: TestServer): void {
  process.env.DATABASE_URL = server.databaseUrl;
  process.env.DATA_DIR = server.dataDir;
  (process.env as Record<string, string>).NODE_ENV = "test";
}
