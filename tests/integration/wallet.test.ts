// The personal calls: check-in (once a day, even under concurrency), invitation transfer,
// notification settings, models, groups and the unread count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { execDb, queryDb } from "../support/db";
import { startServer, type TestServer } from "../support/server";

type U = { id: number; quota: number; aff_quota: number; setting: string };

let server: TestServer;
let root: ApiClient;
beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
});
afterAll(async () => {
  await server?.stop();
});

async function ledgerSum(id: number) {
  const rows = await queryDb<{ delta: unknown }>(server, "SELECT delta FROM quota_ledger WHERE user_id = $1", [id]);
  return rows.reduce((s, r) => s + BigInt(String(r.delta)), 0n);
}

describe("check-in", () => {
  it("is refused while disabled", async () => {
    const { client } = await makeUser(server, root, "lazy");
    expect((await client.get("/api/user/check_in_status")).data).toEqual({ can_check_in: false, checked_in_today: false });
    expect((await client.post("/api/user/check_in")).message).toBe("Check-in is not enabled");
  });

  it("credits exactly once under 20 concurrent calls, and the ledger sums to the balance", async () => {
    await setOptions(root, { CheckInEnabled: "true", CheckInQuota: "1000", CheckInMaxQuota: "5000" });
    const { id, client } = await makeUser(server, root, "eager");
    await root.put("/api/user/", { id, quota: 42 });
    expect((await client.get("/api/user/check_in_status")).data).toEqual({ can_check_in: true, checked_in_today: false });
    const results = await Promise.all(Array.from({ length: 20 }, () => client.post<{ quota: number }>("/api/user/check_in")));
    const wins = results.filter((r) => r.success);
    expect(wins).toHaveLength(1);
    for (const r of results.filter((r) => !r.success)) {
      expect(r.status).toBe(200);
      expect(r.message).toBe("You have already checked in today");
    }
    const won = wins[0].data.quota;
    expect(Number.isInteger(won)).toBe(true);
    expect(won).toBeGreaterThanOrEqual(1000);
    expect(won).toBeLessThanOrEqual(5000);
    const self = await client.get<U>("/api/user/self");
    expect(self.data.quota).toBe(42 + won);
    expect(await ledgerSum(id)).toBe(BigInt(42 + won));
    const logs = await queryDb<{ type: number; quota: unknown }>(server, "SELECT type, quota FROM logs WHERE user_id = $1 AND type = 5", [id]);
    expect(logs).toHaveLength(1);
    expect(Number(logs[0].type)).toBe(5);
    expect(Number(logs[0].quota)).toBe(won);
    expect((await client.get("/api/user/check_in_status")).data).toEqual({ can_check_in: false, checked_in_today: true });
  });
});

describe("invitation transfer", () => {
  it("moves earnings into the balance within the bounds", async () => {
    await setOptions(root, { QuotaForInviter: "600000" });
    const { id, client } = await makeUser(server, root, "host");
    const code = (await client.get<string>("/api/user/aff")).data;
    expect(code).toMatch(/^[A-Za-z0-9]{8}$/);
    const guest = await new ApiClient(server.url).post("/api/user/register", { username: "guest", password: "12345678", aff_code: code });
    expect(guest.success).toBe(true);
    expect((await client.post("/api/user/aff_transfer", { quota: 499999 })).message).toBe("The transfer amount minimum is 500000");
    expect((await client.post("/api/user/aff_transfer", { quota: 600001 })).message).toBe("Not enough invitation earnings");
    expect((await client.post("/api/user/aff_transfer", { quota: "abc" })).success).toBe(false);
    const ok = await client.post("/api/user/aff_transfer", { quota: 500000 });
    expect(ok.success).toBe(true);
    const self = await client.get<U & { aff_history_quota: number }>("/api/user/self");
    expect(self.data).toMatchObject({ quota: 500000, aff_quota: 100000, aff_history_quota: 600000 });
    expect(await ledgerSum(id)).toBe(500000n);
    expect((await client.post("/api/user/aff_transfer", { quota: 500000 })).message).toBe("Not enough invitation earnings");
  });

  it("never transfers more than the earnings under concurrency", async () => {
    await setOptions(root, { QuotaForInviter: "1000000" });
    const { id, client } = await makeUser(server, root, "host2");
    const code = (await client.get<string>("/api/user/aff")).data;
    await new ApiClient(server.url).post("/api/user/register", { username: "guest2", password: "12345678", aff_code: code });
    const results = await Promise.all(Array.from({ length: 6 }, () => client.post("/api/user/aff_transfer", { quota: 500000 })));
    expect(results.filter((r) => r.success)).toHaveLength(2);
    const self = await client.get<U>("/api/user/self");
    expect(self.data).toMatchObject({ quota: 1000000, aff_quota: 0 });
    expect(await ledgerSum(id)).toBe(1000000n);
  });
});

describe("notification settings", () => {
  it("validates, keeps the stored secret when blank, and never returns it", async () => {
    const { client } = await makeUser(server, root, "notify");
    const base = {
      notify_type: "webhook",
      quota_warning_threshold: 500000,
      webhook_url: "http://example.com/hook",
      webhook_secret: "s3cr3t-value",
      notification_email: "",
      accept_unset_model_ratio_model: false,
      show_ip_in_logs: true,
    };
    expect((await client.put("/api/user/setting", base)).message).toBe("The webhook address must start with https://");
    expect((await client.put("/api/user/setting", { ...base, webhook_url: "https://example.com/hook", quota_warning_threshold: 0 })).message).toBe(
      "The quota warning threshold must be greater than 0",
    );
    expect((await client.put("/api/user/setting", { ...base, webhook_url: "https://example.com/hook", notification_email: "bad" })).message).toBe(
      "The notification email address is invalid",
    );
    const saved = await client.put<U>("/api/user/setting", { ...base, webhook_url: "https://example.com/hook" });
    expect(saved.success).toBe(true);
    expect(saved.message).toBe("Settings updated");
    const raw = await client.raw("GET", "/api/user/self");
    const text = await raw.text();
    expect(text).not.toContain("s3cr3t-value");
    const setting = JSON.parse(JSON.parse(text).data.setting);
    expect(setting).toMatchObject({ notify_type: "webhook", webhook_url: "https://example.com/hook", webhook_secret_set: true, show_ip_in_logs: true });
    expect(setting).not.toHaveProperty("webhook_secret");
    // blank secret keeps the stored one
    await client.put("/api/user/setting", { ...base, webhook_url: "https://example.com/other", webhook_secret: "" });
    const stored = await queryDb<{ setting: string }>(server, "SELECT setting FROM users WHERE id = $1", [client.userId]);
    // kept, and sealed at rest (docs/secrets.md; tests/integration/notifications.test.ts sends it)
    expect(JSON.parse(stored[0].setting)).toMatchObject({ webhook_secret: expect.stringMatching(/^v1\./), webhook_url: "https://example.com/other" });
    expect(stored[0].setting).not.toContain("s3cr3t-value");
    const email = await client.put<U>("/api/user/setting", { ...base, notify_type: "email", webhook_url: "", notification_email: "me@example.com" });
    expect(email.success).toBe(true);
  });
});

describe("models, groups and inbox count", () => {
  it("lists the enabled models of the user's group, and the usable groups", async () => {
    const { id, client } = await makeUser(server, root, "modeler");
    await execDb(server, `INSERT INTO channels (name, created_time) VALUES ('c1', 0)`);
    const [{ id: channelId }] = await queryDb<{ id: number }>(server, "SELECT id FROM channels WHERE name = 'c1'");
    for (const [group, model, enabled] of [
      ["default", "gpt-b", true],
      ["default", "gpt-a", true],
      ["default", "gpt-off", false],
      ["vip", "vip-only", true],
    ] as const) {
      await execDb(server, `INSERT INTO abilities ("group", model, channel_id, enabled) VALUES ($1, $2, $3, $4)`, [
        group,
        model,
        channelId,
        server.dbKind === "postgresql" ? enabled : enabled ? 1 : 0,
      ]);
    }
    // As new-api's GetUserModels: the enabled models of every group the user may use
    // (UserUsableGroups, default + vip here, plus the user's own group).
    expect((await client.get<string[]>("/api/user/models")).data).toEqual(["gpt-a", "gpt-b", "vip-only"]);
    await root.put("/api/option/", { key: "UserUsableGroups", value: JSON.stringify({ default: "默认分组" }) });
    expect((await client.get<string[]>("/api/user/models")).data).toEqual(["gpt-a", "gpt-b"]);
    await root.put("/api/option/", { key: "UserUsableGroups", value: JSON.stringify({ default: "默认分组", vip: "vip分组" }) });
    await root.put("/api/user/", { id, group: "svip" });
    expect((await client.get<string[]>("/api/user/models")).data).toEqual(["gpt-a", "gpt-b", "vip-only"]);
    const groups = await client.get<Record<string, { desc: string; ratio: number }>>("/api/user/self/groups");
    expect(groups.data).toEqual({
      default: { desc: "默认分组", ratio: 1 },
      vip: { desc: "vip分组", ratio: 1 },
      svip: { desc: "svip", ratio: 1 },
    });
  });

  it("counts unread inbox messages", async () => {
    const { id, client } = await makeUser(server, root, "reader");
    expect((await client.get("/api/user/messages/unread_count")).data).toEqual({ unread_count: 0 });
    await execDb(server, `INSERT INTO messages (title, content, created_at) VALUES ('hi', 'x', 1)`);
    await execDb(server, `INSERT INTO messages (title, content, created_at) VALUES ('hi2', 'y', 2)`);
    const msgs = await queryDb<{ id: number }>(server, "SELECT id FROM messages ORDER BY id");
    await execDb(server, `INSERT INTO message_recipients (message_id, user_id) VALUES ($1, $2)`, [msgs[0].id, id]);
    await execDb(server, `INSERT INTO message_recipients (message_id, user_id, read_at) VALUES ($1, $2, 5)`, [msgs[1].id, id]);
    await execDb(server, `INSERT INTO message_recipients (message_id, user_id) VALUES ($1, $2)`, [msgs[1].id, root.userId]);
    expect((await client.get("/api/user/messages/unread_count")).data).toEqual({ unread_count: 1 });
  });
});

describe("server log", () => {
  it("has no unexpected errors and no secrets", () => {
    const logs = server.logs();
    expect(server.logLines().filter((l) => l.area === "api" && l.msg === "unexpected error")).toEqual([]);
    expect(logs).not.toMatch(/scrypt\$/);
  });
});
