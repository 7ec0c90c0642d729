// Self-registration: switches, limits, duplicates, the new-user bonus and invitations.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setOptions, setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { queryDb } from "../support/db";
import { startServer, type TestServer } from "../support/server";

type U = {
  id: number;
  quota: number;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  role: number;
  group: string;
};

let server: TestServer;
let root: ApiClient;
beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
});
afterAll(async () => {
  await server?.stop();
});

const reg = (body: Record<string, unknown>, locale: "zh" | "en" = "en") => new ApiClient(server.url, locale).post<U>("/api/user/register", body);

async function ledgerSum(id: number) {
  const rows = await queryDb<{ delta: unknown }>(server, "SELECT delta FROM quota_ledger WHERE user_id = $1", [id]);
  return rows.reduce((s, r) => s + BigInt(String(r.delta)), 0n);
}

describe("register", () => {
  it("validates username and password", async () => {
    expect((await reg({ username: "", password: "12345678" })).message).toBe("Username and password cannot be empty");
    expect((await reg({ username: "abcdefghijklm", password: "12345678" })).message).toBe("The username must not exceed 12 characters");
    expect((await reg({ username: "ok", password: "1234567" })).message).toBe("The password length must not be below 8");
    expect((await reg({ username: "ok", password: "1234567" }, "zh")).message).toBe("密码长度不得小于 8 位");
    expect((await reg({ username: "ok", password: "123456789012345678901" })).message).toBe("The password length must not exceed 20");
    expect((await reg({ username: "ok", password: "12345678", password2: "12345679" })).message).toBe("The two passwords differ");
    expect((await reg({ username: "ok", password: "12345678", email: "not-an-email" })).message).toBe("Invalid email address");
  });

  it("creates a normal user with the new-user bonus through the ledger", async () => {
    await setOptions(root, { QuotaForNewUser: "123456" });
    const r = await reg({ username: "newbie", password: "12345678", password2: "12345678" });
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ role: 1, group: "default", quota: 123456, inviter_id: 0 });
    expect(r.data.aff_code).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(await ledgerSum(r.data.id)).toBe(123456n);
    expect((await new ApiClient(server.url).login("newbie", "12345678")).success).toBe(true);
    expect((await reg({ username: "newbie", password: "12345678" })).message).toBe("The username already exists or was deregistered");
  });

  it("rewards inviter and invitee with a valid aff_code and ignores an unknown one", async () => {
    await setOptions(root, { QuotaForNewUser: "1000", QuotaForInviter: "7000", QuotaForInvitee: "3000" });
    const inviter = await reg({ username: "inviter", password: "12345678" });
    const invitee = await reg({ username: "invitee", password: "12345678", aff_code: inviter.data.aff_code });
    expect(invitee.data).toMatchObject({ inviter_id: inviter.data.id, quota: 4000 });
    expect(await ledgerSum(invitee.data.id)).toBe(4000n);
    const kinds = await queryDb<{ kind: string }>(server, "SELECT kind FROM quota_ledger WHERE user_id = $1 ORDER BY id", [invitee.data.id]);
    expect(kinds.map((k) => k.kind)).toEqual(["register_bonus", "invitee_bonus"]);
    await reg({ username: "invitee2", password: "12345678", aff_code: inviter.data.aff_code });
    const after = await root.get<U>(`/api/user/${inviter.data.id}`);
    expect(after.data).toMatchObject({ aff_count: 2, aff_quota: 14000, aff_history_quota: 14000, quota: 1000 });
    const stranger = await reg({ username: "stranger", password: "12345678", aff_code: "NOPE0000" });
    expect(stranger.data).toMatchObject({ inviter_id: 0, quota: 1000 });
  });

  it("is refused when registration, password registration or self-use mode forbid it", async () => {
    await setOptions(root, { RegisterEnabled: "false" });
    expect((await reg({ username: "r1", password: "12345678" })).message).toBe("The admin has disabled new user registration");
    await setOptions(root, { RegisterEnabled: "true", PasswordRegisterEnabled: "false" });
    expect((await reg({ username: "r2", password: "12345678" }, "zh")).message).toBe("管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册");
    await setOptions(root, { PasswordRegisterEnabled: "true", SelfUseModeEnabled: "true" });
    expect((await reg({ username: "r3", password: "12345678" })).message).toBe("The admin has disabled new user registration");
    await setOptions(root, { SelfUseModeEnabled: "false" });
    expect((await reg({ username: "r4", password: "12345678" })).success).toBe(true);
  });

  it("with e-mail verification on, asks for the address and the code and refuses a code never mailed", async () => {
    await setOptions(root, { EmailVerificationEnabled: "true" });
    expect((await reg({ username: "r5", password: "12345678" })).message).toBe("Please enter email");
    expect((await reg({ username: "r5", password: "12345678", email: "a@b.co" })).message).toBe("Please enter the email verification code");
    expect((await reg({ username: "r5", password: "12345678", email: "a@b.co", verification_code: "123456" })).success).toBe(false);
    await setOptions(root, { EmailVerificationEnabled: "false" });
  });

  it("lets exactly one of several concurrent registrations take a username", async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => reg({ username: "racer", password: "12345678" })));
    expect(results.filter((r) => r.success)).toHaveLength(1);
    for (const r of results.filter((r) => !r.success)) expect(r.message).toBe("The username already exists or was deregistered");
  });
});
