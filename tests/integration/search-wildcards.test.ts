// Console searches match "%" and "_" (and the escape character "\") literally, on SQLite and
// PostgreSQL: token names, user names, display names and e-mails, and log model names.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execDb } from "../support/db";
import { seedUser, type SeededUser } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

type Page = { items: Array<{ id: number; name?: string; username?: string; model_name?: string }>; total: number };

let server: TestServer;
let root: SeededUser;
let alice: SeededUser;
beforeAll(async () => {
  server = await startServer();
  root = await seedUser(server, { username: "root", role: 100 });
  alice = await seedUser(server, { username: "alice" });
});
afterAll(async () => {
  await server?.stop();
});

const q = (s: string) => encodeURIComponent(s);

describe("LIKE wildcards in searches", () => {
  it("token names", async () => {
    for (const name of ["plain", "with%percent", "with_under", "with\\slash", "withXunder"]) {
      expect((await alice.client.post("/api/token/", { name })).success).toBe(true);
    }
    const names = async (keyword: string) => (await alice.client.get<Page>(`/api/token/search?keyword=${q(keyword)}`)).data.items.map((t) => t.name).sort();
    expect(await names("%")).toEqual(["with%percent"]);
    expect(await names("_")).toEqual(["with_under"]);
    expect(await names("h_u")).toEqual(["with_under"]);
    expect(await names("\\")).toEqual(["with\\slash"]);
    expect(await names("\\s")).toEqual(["with\\slash"]);
    expect(await names("with")).toHaveLength(4);
  });

  it("user names, display names and e-mails", async () => {
    await seedUser(server, { username: "u%pct" });
    await seedUser(server, { username: "u_und" });
    const named = await seedUser(server, { username: "plainname" });
    await execDb(server, 'UPDATE "users" SET "display_name" = $1, "email" = $2 WHERE "id" = $3', ["Shown_Name", "a%b@x.example", named.id]);
    const users = async (keyword: string) =>
      (await root.client.get<Page>(`/api/user/search?keyword=${q(keyword)}&p=1&page_size=50`)).data.items.map((u) => u.username).sort();
    expect(await users("%")).toEqual(["plainname", "u%pct"]);
    expect(await users("_")).toEqual(["plainname", "u_und"]);
    expect(await users("u_")).toEqual(["u_und"]);
    expect(await users("\\")).toEqual([]);
  });

  it("log model names, in the admin and the self view", async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const model of ["gpt-4o", "model_x", "model%y", "modelAx"]) {
      await execDb(server, 'INSERT INTO "logs" ("user_id", "created_at", "type", "username", "model_name") VALUES ($1, $2, 2, $3, $4)', [
        alice.id,
        now,
        "alice",
        model,
      ]);
    }
    const admin = async (model: string) =>
      (await root.client.get<Page>(`/api/log/?model_name=${q(model)}&p=1&page_size=50`)).data.items.map((l) => l.model_name).sort();
    const self = async (model: string) =>
      (await alice.client.get<Page>(`/api/log/self/?model_name=${q(model)}&p=1&page_size=50`)).data.items.map((l) => l.model_name).sort();
    expect(await admin("%")).toEqual(["model%y"]);
    expect(await admin("_")).toEqual(["model_x"]);
    expect(await admin("l_x")).toEqual(["model_x"]);
    expect(await self("%")).toEqual(["model%y"]);
    expect(await self("_")).toEqual(["model_x"]);
    expect(await self("model")).toHaveLength(3);
    const stat = await alice.client.get<{ quota: number }>(`/api/log/self/stat?model_name=${q("%")}&type=2`);
    expect(stat.success).toBe(true);
  });
});
