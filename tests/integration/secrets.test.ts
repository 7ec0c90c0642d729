// Secret options at rest (docs/secrets.md): sealed in the database as channel keys are,
// opened for the server's own code, listed as "" with a set flag, sealed at start-up when an
// older version left them in plaintext; on SQLite secure_delete is on, so that an overwritten
// value does not survive in the file's free pages.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET_OPTION_KEYS } from "@/lib/options/rules";
import { OPTION_KEYS } from "@/lib/options/registry";
import { setupRoot } from "../support/accounts";
import type { ApiClient } from "../support/client";
import { execDb, queryDb } from "../support/db";
import { useServerEnvironment } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
  // payment settings (EpayKey) are accepted once the server address is set (docs/settings.md)
  expect((await root.put("/api/option/", { key: "ServerAddress", value: "https://gw.example.com" })).success).toBe(true);
  useServerEnvironment(server);
});
afterAll(async () => {
  await server?.stop();
});

const KEYS = OPTION_KEYS.filter((k) => SECRET_OPTION_KEYS.has(k));
const plain = (key: string) => `plain-${key}-Qx71zv`;
const put = (key: string, value: string) => root.put("/api/option/", { key, value });
const rows = async () => new Map((await queryDb<{ key: string; value: string }>(server, 'SELECT "key", "value" FROM "options"')).map((r) => [r.key, r.value]));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The database's bytes as the disk holds them (SQLite: the main file and its WAL). */
function fileBytes(): string {
  const file = server.databaseUrl.replace(/^file:/, "");
  let text = readFileSync(file).toString("latin1");
  try {
    text += readFileSync(file + "-wal").toString("latin1");
  } catch {
    // no WAL at the moment
  }
  return text;
}

describe("secret options", () => {
  it('are sealed in the database, opened for the server\'s code, listed as "" with a set flag', async () => {
    for (const key of KEYS) expect((await put(key, plain(key))).success).toBe(true);
    const stored = await rows();
    for (const key of KEYS) {
      expect(stored.get(key)).toMatch(/^v1\./);
      expect(stored.get(key)).not.toContain(plain(key));
    }
    const res = await root.raw("GET", "/api/option/");
    const text = await res.text();
    for (const key of KEYS) expect(text).not.toContain(plain(key));
    const listed = new Map((JSON.parse(text).data as { key: string; value: string; set?: boolean }[]).map((o) => [o.key, o]));
    for (const key of KEYS) expect(listed.get(key)).toEqual({ key, value: "", set: true, writable: true });
    expect(listed.get("QuotaPerUnit")).toEqual({ key: "QuotaPerUnit", value: "500000", writable: true });

    // the server's own code reads the value opened (in-process, from the same database and key)
    const store = await import("@/lib/options/store");
    await store.loadOptions();
    for (const key of KEYS) expect(store.getOption(key)).toBe(plain(key));

    if (server.dbKind === "sqlite") {
      await sleep(600); // a checkpoint or two (every 200 ms)
      const bytes = fileBytes();
      for (const key of KEYS) expect(bytes).not.toContain(plain(key));
    }
  });

  it("saved empty: not set, stored empty", async () => {
    expect((await put("WorkerValidKey", "")).success).toBe(true);
    expect((await rows()).get("WorkerValidKey")).toBe("");
    const listed = (await root.get<{ key: string; value: string; set?: boolean }[]>("/api/option/")).data;
    expect(listed.find((o) => o.key === "WorkerValidKey")).toEqual({ key: "WorkerValidKey", value: "", set: false, writable: true });
  });

  it("left in plaintext by an older version: sealed at start-up, no plaintext left in the database", async () => {
    const old = "old-plaintext-smtp-token-Vb83";
    await execDb(server, `UPDATE "options" SET "value" = $1 WHERE "key" = 'SMTPToken'`, [old]);
    await execDb(server, `INSERT INTO "options" ("key", "value") VALUES ('EpayKey', $1) ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value"`, [
      "old-plaintext-epay-Kk21",
    ]);
    expect((await rows()).get("SMTPToken")).toBe(old);
    // a node of the new version starting on this database (same data directory: same key)
    const next = await startServer({ databaseUrl: server.databaseUrl, env: { DATA_DIR: server.dataDir } });
    try {
      expect(next.logLines().find((l) => l.msg === "sealed secret options stored in plaintext")).toMatchObject({ area: "boot", level: "info" });
      const stored = await rows();
      expect(stored.get("SMTPToken")).toMatch(/^v1\./);
      expect(stored.get("EpayKey")).toMatch(/^v1\./);
      const store = await import("@/lib/options/store");
      await store.loadOptions();
      expect(store.getOption("SMTPToken")).toBe(old);
      expect(store.getOption("EpayKey")).toBe("old-plaintext-epay-Kk21");
      if (server.dbKind === "sqlite") {
        const bytes = fileBytes();
        expect(bytes).not.toContain(old);
        expect(bytes).not.toContain("old-plaintext-epay-Kk21");
      }
    } finally {
      await next.stop(); // removes only the directory startServer made for it (unused)
    }
  });
});

describe.runIf((process.env.TEST_DB ?? "sqlite") === "sqlite")("SQLite secure_delete", () => {
  it("is on for the program's connection", async () => {
    const { sqliteConnection } = await import("@/lib/db/client");
    const conn = await sqliteConnection();
    expect(Number(conn.pragma("secure_delete", { simple: true }))).toBe(1);
  });

  it("an overwritten secret's old bytes are not left in the database file", async () => {
    // large enough to spill into overflow pages (1 KiB pages), which the overwrite frees
    const big = "S".repeat(2000) + Math.random().toString(36).slice(2);
    expect((await put("TurnstileSecretKey", big)).success).toBe(true);
    const sealed = (await rows()).get("TurnstileSecretKey")!;
    await sleep(600); // checkpointed into the main file
    const file = server.databaseUrl.replace(/^file:/, "");
    const slices = Array.from({ length: 20 }, (_, i) => sealed.slice(100 + i * 100, 140 + i * 100));
    const found = () => {
      const bytes = readFileSync(file).toString("latin1");
      return slices.filter((s) => bytes.includes(s)).length;
    };
    expect(found()).toBeGreaterThan(0); // it was there
    expect((await put("TurnstileSecretKey", "short")).success).toBe(true);
    await sleep(600);
    expect(found()).toBe(0);
  });
});
