// The program's own migrator on SQLite: a new database gets 1 KiB pages and WAL before its
// first table; an existing file keeps the page size it was made with and is migrated as is.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";

const dir = mkdtempSync(path.join(os.tmpdir(), "gw-migrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// env() is parsed once per module registry: each case gets a fresh one pointed at its file.
async function migrateTo(file: string) {
  process.env.DATA_DIR = dir;
  process.env.DATABASE_URL = `file:${file}`;
  vi.resetModules();
  const { migrate, SQLITE_PAGE_SIZE } = await import("@/lib/db/migrate");
  return { applied: await migrate(), pageSize: SQLITE_PAGE_SIZE };
}

const tablesOf = (conn: Database.Database) => conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];

describe("SQLite migrations", () => {
  it("a new database: 1 KiB pages, WAL, every migration applied once", async () => {
    const file = path.join(dir, "new.db");
    const { applied, pageSize } = await migrateTo(file);
    expect(applied.length).toBeGreaterThan(0);
    expect((await migrateTo(file)).applied).toEqual([]);
    const conn = new Database(file);
    try {
      expect(pageSize).toBe(1024);
      expect(conn.pragma("page_size", { simple: true })).toBe(pageSize);
      expect(conn.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(tablesOf(conn)).toEqual(expect.arrayContaining(["users", "tokens", "channels", "logs", "quota_ledger"]));
    } finally {
      conn.close();
    }
  });

  it("an existing database keeps its page size and is migrated", async () => {
    const file = path.join(dir, "old.db");
    const before = new Database(file);
    before.pragma("page_size = 4096");
    before.exec("CREATE TABLE kept (id INTEGER PRIMARY KEY)");
    before.close();
    expect((await migrateTo(file)).applied.length).toBeGreaterThan(0);
    const conn = new Database(file);
    try {
      expect(conn.pragma("page_size", { simple: true })).toBe(4096);
      expect(conn.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(tablesOf(conn)).toEqual(expect.arrayContaining(["kept", "users", "logs"]));
    } finally {
      conn.close();
    }
  });
});
