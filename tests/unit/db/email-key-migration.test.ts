// Migration 0005 on a database that already has users (docs/accounts-api.md, "E-mail
// addresses"): each distinct address, compared lowercased, goes to its oldest live account;
// later duplicates, deregistered accounts and empty addresses get no key; the unique index
// then holds.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";

const dir = mkdtempSync(path.join(os.tmpdir(), "gw-email-key-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const migrations = path.resolve("prisma/migrations/sqlite");
const files = readdirSync(migrations)
  .filter((f) => f.endsWith(".sql"))
  .sort();

it("backfills email_key for the oldest live account of each address", () => {
  const conn = new Database(path.join(dir, "old.db"));
  try {
    for (const f of files.filter((f) => f < "0005")) conn.exec(readFileSync(path.join(migrations, f), "utf8"));
    const insert = conn.prepare('INSERT INTO "users" ("id", "username", "password", "email", "aff_code", "deleted_at") VALUES (?, ?, ?, ?, ?, ?)');
    const rows: [number, string, string, number | null][] = [
      [1, "gone", "Dup@Example.com", 5], // deregistered: never keyed
      [2, "first", " dup@example.com ", null],
      [3, "second", "DUP@example.COM", null],
      [4, "solo", "Solo@Example.com", null],
      [5, "none1", "", null],
      [6, "none2", "", null],
    ];
    for (const [id, username, email, deleted] of rows) insert.run(id, username, "x", email, `aff${id}`, deleted);
    conn.exec(
      readFileSync(
        path.join(
          migrations,
          files.find((f) => f.startsWith("0005_"))!,
        ),
        "utf8",
      ),
    );
    const keys = conn.prepare('SELECT "id", "email", "email_key" FROM "users" ORDER BY "id"').all();
    expect(keys).toEqual([
      { id: 1, email: "Dup@Example.com", email_key: null },
      { id: 2, email: " dup@example.com ", email_key: "dup@example.com" },
      { id: 3, email: "DUP@example.COM", email_key: null },
      { id: 4, email: "Solo@Example.com", email_key: "solo@example.com" },
      { id: 5, email: "", email_key: null },
      { id: 6, email: "", email_key: null },
    ]);
    expect(() => conn.prepare('UPDATE "users" SET "email_key" = ? WHERE "id" = 3').run("dup@example.com")).toThrow(/UNIQUE/);
  } finally {
    conn.close();
  }
});
