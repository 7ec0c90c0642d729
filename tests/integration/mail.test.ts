// E-mail against a real SMTP server on 127.0.0.1 (tests/support/smtp.ts): the root's test
// mail, verification codes (registration, binding), the address rules (whitelist, aliases,
// one account per address) and the password reset, on the built server (docs/mail.md,
// docs/accounts-api.md).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loginAs, makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { queryDb } from "../support/db";
import { parseMail, type ParsedMail } from "../support/mime";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";
import { startTestSmtp, type TestSmtp } from "../support/smtp";
import type { Locale } from "@/lib/i18n/locale";
import { renderMessage } from "@/lib/i18n/server-messages";

const SMTP_PASSWORD = "smtp-Secret-9f3k";

let server: TestServer;
let smtp: TestSmtp;
let root: ApiClient;
const anon = (locale: Locale = "en") => new ApiClient(server.url, locale);

beforeAll(async () => {
  smtp = await startTestSmtp();
  server = await startServer();
  root = await setupRoot(server);
  await setOptions(root, {
    SMTPServer: "127.0.0.1",
    SMTPPort: String(smtp.port),
    SMTPAccount: "robot@example.com",
    SMTPFrom: "noreply@example.com",
    SMTPToken: SMTP_PASSWORD,
    ServerAddress: server.url,
    SystemName: "Gate <Test>",
  });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});
beforeEach(async () => {
  smtp.rejectWith(0);
  await setOptions(root, { EmailVerificationEnabled: "false", EmailDomainRestrictionEnabled: "false", EmailAliasRestrictionEnabled: "false" });
});

// The next mail to `to` that arrives after `since` messages, decoded.
async function mailTo(to: string, since: number): Promise<ParsedMail> {
  const until = Date.now() + 10_000;
  for (;;) {
    const hit = smtp.received.slice(since).find((m) => m.to.includes(to));
    if (hit) return parseMail(hit.raw);
    if (Date.now() > until) throw new Error(`no mail to ${to}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const codeOf = (mail: ParsedMail) => /\b(\d{6})\b/.exec(mail.text)?.[1] ?? "";

async function requestCode(email: string, client = anon()): Promise<string> {
  const since = smtp.received.length;
  const r = await client.get(`/api/verification?email=${encodeURIComponent(email)}&turnstile=`);
  expect(r, r.message).toMatchObject({ success: true, message: "Verification code sent, check your mailbox" });
  const code = codeOf(await mailTo(email.toLowerCase(), since));
  expect(code).toMatch(/^\d{6}$/);
  return code;
}

// Ends the 30-second cooldown of an address (as if the time had passed).
const ageCodes = (email: string) => query(server, 'UPDATE "email_codes" SET "created_at" = "created_at" - 60 WHERE "email" = $1', [email.toLowerCase()]);

describe("test mail (root)", () => {
  it("sends with the saved settings to the given address, in the caller's language, with the site name escaped", async () => {
    const since = smtp.received.length;
    const r = await root.post("/api/option/test_mail", { to: "ops@example.com" });
    expect(r).toMatchObject({ success: true, message: "Test mail sent to ops@example.com" });
    const received = smtp.received.slice(since).find((m) => m.to.includes("ops@example.com"))!;
    expect(received.auth).toEqual({ user: "robot@example.com", pass: SMTP_PASSWORD });
    expect(received.from).toBe("noreply@example.com");
    const mail = parseMail(received.raw);
    expect(mail.subject).toBe("Gate <Test> test mail");
    expect(mail.text).toContain(server.url);
    expect(mail.html).toContain("Gate &lt;Test&gt;");
    expect(mail.html).not.toContain("Gate <Test>");

    const zh = await loginAs(server, "root", ROOT_PASSWORD, "zh");
    const since2 = smtp.received.length;
    expect(await zh.post("/api/option/test_mail", { to: "ops@example.com" })).toMatchObject({ success: true, message: "测试邮件已发送至 ops@example.com" });
    expect((await mailTo("ops@example.com", since2)).subject).toBe("Gate <Test> 测试邮件");
  });

  it("without an address and with no e-mail of its own, says so; a bad address is refused", async () => {
    expect(await root.post("/api/option/test_mail", {})).toMatchObject({
      success: false,
      message: "Your account has no email address; enter an address to send to",
    });
    expect(await root.post("/api/option/test_mail", { to: "nope" })).toMatchObject({ success: false, message: "Invalid email address" });
  });

  it("a refusing server gives a clear message without the password; not configured says so", async () => {
    smtp.rejectWith(550);
    const res = await root.raw("POST", "/api/option/test_mail", { to: "ops@example.com" });
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ success: false, message: "The mail could not be sent; try again later or contact the admin" });
    expect(text).not.toContain(SMTP_PASSWORD);
    smtp.rejectWith(0);
    await setOptions(root, { SMTPServer: "" });
    try {
      expect(await root.post("/api/option/test_mail", { to: "ops@example.com" })).toMatchObject({
        success: false,
        message: "The admin has not configured an SMTP mail server",
      });
    } finally {
      await setOptions(root, { SMTPServer: "127.0.0.1" });
    }
  });

  it("is the root's only", async () => {
    const admin = await makeUser(server, root, "tm-admin", 10);
    const r = await admin.client.post("/api/option/test_mail", { to: "ops@example.com" });
    expect(r.status).toBe(403);
    expect(r.success).toBe(false);
    expect((await anon().post("/api/option/test_mail", { to: "ops@example.com" })).status).toBe(401);
  });
});

describe("registration with a mailed code", () => {
  const reg = (body: Record<string, unknown>) => anon().post<{ id: number; email: string }>("/api/user/register", body);

  it("refuses a wrong code, accepts the mailed one once, and login by e-mail then works", async () => {
    await setOptions(root, { EmailVerificationEnabled: "true" });
    const code = await requestCode("Alice@Example.com");
    // one code per address per 30 seconds (the answer is the too-many message)
    const again = await anon().get("/api/verification?email=alice@example.com");
    expect(again).toMatchObject({ success: false, message: "Too many requests, please try again later" });
    const wrong = code === "000000" ? "111111" : "000000";
    expect(await reg({ username: "alice", password: "12345678", email: "alice@example.com", verification_code: wrong })).toMatchObject({
      success: false,
      message: "The verification code is wrong or has expired",
    });
    const ok = await reg({ username: "alice", password: "12345678", email: "alice@example.com", verification_code: code });
    expect(ok.success, ok.message).toBe(true);
    expect(ok.data.email).toBe("alice@example.com");
    // the code is used: a second registration with it fails (the address is taken anyway)
    const second = await reg({ username: "alice2", password: "12345678", email: "alice@example.com", verification_code: code });
    expect(second).toMatchObject({ success: false, message: "This email address is already in use" });
    expect((await anon().login("ALICE@example.com", "12345678")).success).toBe(true);
    // the address is taken for new codes too, whatever its case
    expect(await anon().get("/api/verification?email=ALICE@EXAMPLE.COM")).toMatchObject({ success: false, message: "This email address is already in use" });
  });

  it("a code is single use, expires, and dies after five wrong guesses", async () => {
    await setOptions(root, { EmailVerificationEnabled: "true" });
    const code = await requestCode("bob@example.com");
    const [row] = await queryDb<{ code_hash: string }>(server, 'SELECT "code_hash" FROM "email_codes" WHERE "email" = $1', ["bob@example.com"]);
    expect(row.code_hash).not.toContain(code); // stored as a keyed hash only
    // used by a registration that fails on its username: the code stays usable
    expect((await reg({ username: "alice", password: "12345678", email: "bob@example.com", verification_code: code })).success).toBe(false);
    expect((await reg({ username: "bob", password: "12345678", email: "bob@example.com", verification_code: code })).success).toBe(true);

    await ageCodes("carol@example.com");
    const expired = await requestCode("carol@example.com");
    await query(server, 'UPDATE "email_codes" SET "expires_at" = 1 WHERE "email" = $1', ["carol@example.com"]);
    expect(await reg({ username: "carol", password: "12345678", email: "carol@example.com", verification_code: expired })).toMatchObject({
      message: "The verification code is wrong or has expired",
    });

    await ageCodes("carol@example.com");
    const guessed = await requestCode("carol@example.com");
    const wrong = guessed === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++)
      expect((await reg({ username: "carol", password: "12345678", email: "carol@example.com", verification_code: wrong })).success).toBe(false);
    expect(await reg({ username: "carol", password: "12345678", email: "carol@example.com", verification_code: guessed })).toMatchObject({
      message: "The verification code is wrong or has expired",
    });
  });

  it("under concurrency: 20 parallel wrong guesses count as 20, so the code is dead after 5 and the right one is refused", async () => {
    await setOptions(root, { EmailVerificationEnabled: "true" });
    const code = await requestCode("guess@example.com");
    const wrong = code === "000000" ? "111111" : "000000";
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => reg({ username: `guess${i}`, password: "12345678", email: "guess@example.com", verification_code: wrong })),
    );
    for (const g of guesses) expect(g).toMatchObject({ success: false, message: "The verification code is wrong or has expired" });
    const [row] = await queryDb<{ attempts: unknown }>(server, 'SELECT "attempts" FROM "email_codes" WHERE "email" = $1', ["guess@example.com"]);
    expect(Number(row.attempts)).toBe(5);
    expect(await reg({ username: "guess", password: "12345678", email: "guess@example.com", verification_code: code })).toMatchObject({
      success: false,
      message: "The verification code is wrong or has expired",
    });
    const users = await queryDb<{ n: unknown }>(server, "SELECT count(*) AS n FROM users WHERE username LIKE 'guess%'", []);
    expect(Number(users[0].n)).toBe(0);
  });

  it("under concurrency: one code per address per cooldown, and a code makes one account", async () => {
    const since = smtp.received.length;
    const asks = await Promise.all(Array.from({ length: 6 }, () => anon().get("/api/verification?email=race@example.com")));
    expect(asks.filter((r) => r.success)).toHaveLength(1);
    expect(asks.filter((r) => r.status === 429)).toHaveLength(5);
    const code = codeOf(await mailTo("race@example.com", since));
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.slice(since).filter((m) => m.to.includes("race@example.com"))).toHaveLength(1);

    await setOptions(root, { EmailVerificationEnabled: "true" });
    const regs = await Promise.all(
      ["race1", "race2", "race3", "race4"].map((username) => reg({ username, password: "12345678", email: "race@example.com", verification_code: code })),
    );
    expect(regs.filter((r) => r.success)).toHaveLength(1);
    const rows = await queryDb<{ n: unknown }>(server, "SELECT count(*) AS n FROM users WHERE email_key = $1", ["race@example.com"]);
    expect(Number(rows[0].n)).toBe(1);
  });

  it("a code that could not be mailed is withdrawn: no cooldown, a clear message", async () => {
    smtp.rejectWith(550);
    const r = await anon("zh").get("/api/verification?email=dan@example.com");
    expect(r).toMatchObject({ success: false, message: "邮件发送失败，请稍后再试或联系管理员" });
    smtp.rejectWith(0);
    await requestCode("dan@example.com");
  });

  it("the code mail is in the caller's language, with the site's name and address", async () => {
    const since = smtp.received.length;
    expect(await anon("zh").get("/api/verification?email=zh-user@example.com")).toMatchObject({ success: true, message: "验证码发送成功，请检查你的邮箱" });
    const mail = await mailTo("zh-user@example.com", since);
    expect(mail.subject).toBe("Gate <Test> 邮箱验证码");
    expect(mail.text).toMatch(/验证码 10 分钟内有效/);
    expect(mail.text).toContain(server.url);
    expect(mail.html).toContain(codeOf(mail));
  });
});

describe("address rules", () => {
  it("with verification off, registration takes no address (nobody can reserve another's)", async () => {
    for (const username of ["squat1", "squat2"]) {
      const r = await anon().post<{ id: number; email: string }>("/api/user/register", { username, password: "12345678", email: "owner@example.com" });
      expect(r.success, r.message).toBe(true);
      expect(r.data.email).toBe("");
    }
    const rows = await queryDb<{ n: unknown }>(
      server,
      "SELECT count(*) AS n FROM users WHERE username LIKE 'squat%' AND (email <> '' OR email_key IS NOT NULL)",
      [],
    );
    expect(Number(rows[0].n)).toBe(0);
    // the real owner can still prove the address and register with it
    await setOptions(root, { EmailVerificationEnabled: "true" });
    const code = await requestCode("owner@example.com");
    const owner = await anon().post<{ email: string }>("/api/user/register", {
      username: "owner",
      password: "12345678",
      email: "owner@example.com",
      verification_code: code,
    });
    expect(owner.success, owner.message).toBe(true);
    expect(owner.data.email).toBe("owner@example.com");
  });

  it("one account per address: the code request, registration and the admin's edit refuse a taken one", async () => {
    const r = await anon().post<{ id: number }>("/api/user/register", { username: "erin", password: "12345678" });
    expect(r.success, r.message).toBe(true);
    expect((await root.put("/api/user/", { id: r.data.id, email: "Erin@Example.com" })).success).toBe(true);
    await setOptions(root, { EmailVerificationEnabled: "true" });
    expect(await anon().get("/api/verification?email=erin@example.com")).toMatchObject({ success: false, message: "This email address is already in use" });
    expect(
      await anon().post("/api/user/register", { username: "erin2", password: "12345678", email: "erin@example.com", verification_code: "123456" }),
    ).toMatchObject({
      success: false,
      message: "This email address is already in use",
    });
    const other = await makeUser(server, root, "frank");
    expect(await root.put("/api/user/", { id: other.id, email: "ERIN@example.com" })).toMatchObject({
      success: false,
      message: "This email address is already in use",
    });
    expect((await root.put("/api/user/", { id: other.id, email: "frank@example.com" })).success).toBe(true);
    expect((await anon().login("frank@example.com", "user-pass-1")).success).toBe(true);
  });

  it("with the whitelist on, only its domains (exact, any case) are accepted wherever an address is", async () => {
    await setOptions(root, { EmailDomainRestrictionEnabled: "true", EmailDomainWhitelist: "example.com,Corp.COM" });
    const refused = "The admin allows only whitelisted email domains; the domain of your address is not on the list";
    expect(await anon().get("/api/verification?email=x@other.org")).toMatchObject({ success: false, message: refused });
    expect(await anon().get("/api/verification?email=x@sub.example.com")).toMatchObject({ success: false, message: refused });
    await requestCode("x@CORP.com");
    await setOptions(root, { EmailVerificationEnabled: "true" });
    expect(
      await anon().post("/api/user/register", { username: "wl1", password: "12345678", email: "wl@other.org", verification_code: "123456" }),
    ).toMatchObject({
      success: false,
      message: refused,
    });
    const u = await makeUser(server, root, "wl-user");
    expect(await u.client.get("/api/oauth/email/bind?email=wl@other.org&code=123456")).toMatchObject({ success: false, message: refused });
    await setOptions(root, { EmailDomainWhitelist: "gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com" });
  });

  it("with the alias restriction on, plus-addressing and Gmail's dotted variants are refused", async () => {
    const jd = await makeUser(server, root, "jd");
    expect((await root.put("/api/user/", { id: jd.id, email: "john.doe@gmail.com" })).success).toBe(true);
    await setOptions(root, { EmailAliasRestrictionEnabled: "true" });
    const refused = "The admin does not allow email aliases; this address uses + or is a variant of an existing address";
    expect(await anon().get("/api/verification?email=name%2Bx@example.com")).toMatchObject({ success: false, message: refused });
    expect(await anon().get("/api/verification?email=johndoe@gmail.com")).toMatchObject({ success: false, message: refused });
    expect(await anon().get("/api/verification?email=j.o.h.n.doe@googlemail.com")).toMatchObject({ success: false, message: refused });
    await setOptions(root, { EmailVerificationEnabled: "true" });
    expect(
      await anon().post("/api/user/register", { username: "jd2", password: "12345678", email: "JohnDoe@gmail.com", verification_code: "123456" }),
    ).toMatchObject({
      success: false,
      message: refused,
    });
    await requestCode("johndoe2@gmail.com");
    await requestCode("john.doe@example.com"); // other domains keep their dots
    await setOptions(root, { EmailAliasRestrictionEnabled: "false", EmailVerificationEnabled: "false" });
    await ageCodes("johndoe@gmail.com");
    await requestCode("johndoe@gmail.com");
  });
});

describe("e-mail binding (/app/me)", () => {
  it("requires both fields, binds with the mailed code once, and changes the address", async () => {
    const u = await makeUser(server, root, "binder");
    expect(await u.client.get("/api/oauth/email/bind?email=&code=")).toMatchObject({ success: false, message: "Please enter email" });
    expect(await u.client.get("/api/oauth/email/bind?email=b1@example.com&code=")).toMatchObject({
      success: false,
      message: "Please enter the email verification code",
    });
    const code = await requestCode("b1@example.com", u.client);
    expect(await u.client.get(`/api/oauth/email/bind?email=b1@example.com&code=${code}`)).toMatchObject({ success: true, message: "Email bound" });
    expect((await u.client.get<{ email: string }>("/api/user/self")).data.email).toBe("b1@example.com");
    expect(await u.client.get(`/api/oauth/email/bind?email=b1@example.com&code=${code}`)).toMatchObject({
      success: false,
      message: "The verification code is wrong or has expired",
    });
    // another account cannot take it, with or without a code
    const other = await makeUser(server, root, "binder2");
    expect(await other.client.get(`/api/oauth/email/bind?email=B1@example.com&code=${code}`)).toMatchObject({
      message: "This email address is already in use",
    });
    // change to a new address
    const code2 = await requestCode("b2@example.com", u.client);
    expect((await u.client.get(`/api/oauth/email/bind?email=b2@example.com&code=${code2}`)).success).toBe(true);
    expect((await u.client.get<{ email: string }>("/api/user/self")).data.email).toBe("b2@example.com");
    expect((await anon().get("/api/oauth/email/bind?email=b3@example.com&code=123456")).status).toBe(401);
  });
});

describe("password reset", () => {
  it("mails a holder whose language is Japanese in Japanese, whatever the asking browser speaks", async () => {
    const kenji = await makeUser(server, root, "kenji", 1, "kenji-pass-1");
    expect((await root.put("/api/user/", { id: kenji.id, email: "kenji@example.com" })).success).toBe(true);
    await loginAs(server, "kenji", "kenji-pass-1", "ja"); // the account's language becomes ja

    const since = smtp.received.length;
    const asked = await anon("fr").get("/api/reset_password?email=kenji@example.com&turnstile=");
    expect(asked).toMatchObject({ success: true, message: renderMessage("fr", "reset_mail_sent") });
    const mail = await mailTo("kenji@example.com", since);
    expect(mail.subject).toBe(renderMessage("ja", "mail_reset_subject", { site: "Gate <Test>" }));
    expect(mail.subject).toContain("パスワード");
    expect(mail.text).toContain(renderMessage("ja", "mail_reset_intro"));
    expect(mail.html).toContain('<html lang="ja-JP">');
    expect(mail.text).not.toMatch(/password|密码/i);
  });

  it("mails a single-use link in the holder's language; the new password works and every old session ends", async () => {
    const grace = await makeUser(server, root, "grace", 1, "grace-old-1");
    expect((await root.put("/api/user/", { id: grace.id, email: "grace@example.com" })).success).toBe(true);
    const session = await loginAs(server, "grace", "grace-old-1"); // in English: the account's language

    const since = smtp.received.length;
    // asked from a Chinese browser: the answer is in Chinese, the mail in the holder's English
    const asked = await anon("zh").get("/api/reset_password?email=Grace@example.com&turnstile=");
    expect(asked).toMatchObject({ success: true, message: "如果该邮箱已注册，重置邮件将在几分钟内送达，请检查你的邮箱" });
    const mail = await mailTo("grace@example.com", since);
    expect(mail.subject).toBe("Gate <Test> password reset");
    const link = /(https?:\/\/\S+\/user\/reset\?\S+)/.exec(mail.text)?.[1] ?? "";
    expect(link.startsWith(`${server.url}/user/reset?email=grace%40example.com&token=`)).toBe(true);
    const url = new URL(link);
    const token = url.searchParams.get("token") ?? "";
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(mail.html).toContain(`href="${link.replace(/&/g, "&amp;")}"`);

    // 30 seconds per address
    expect(await anon().get("/api/reset_password?email=grace@example.com")).toMatchObject({
      success: false,
      message: "Too many requests, please try again later",
    });
    expect(await anon().post("/api/user/reset", { email: "grace@example.com", token: token.slice(1) + "x" })).toMatchObject({
      success: false,
      message: "The reset link is invalid or has expired",
    });
    expect(await anon().post("/api/user/reset", { email: "other@example.com", token })).toMatchObject({ success: false });

    const done = await anon().post<string>("/api/user/reset", { email: url.searchParams.get("email"), token });
    expect(done.success, done.message).toBe(true);
    expect(done.data).toMatch(/^[A-Za-z0-9]{12}$/);
    // the audit log (docs/audit.md): the reset by the mailed link, the account's owner its actor
    const reset = await query(server, 'SELECT "actor_id", "detail" FROM "audit_logs" WHERE "user_id" = $1 AND "action" = $2', [grace.id, "password_reset"]);
    expect(reset.map((r) => [Number(r.actor_id), JSON.parse(String(r.detail)).by])).toEqual([[grace.id, "mail_link"]]);
    expect((await session.get("/api/user/self")).status).toBe(401);
    expect((await anon().login("grace", "grace-old-1")).success).toBe(false);
    expect((await anon().login("grace@example.com", done.data)).success).toBe(true);
    // the link is single use
    expect(await anon().post("/api/user/reset", { email: "grace@example.com", token })).toMatchObject({
      success: false,
      message: "The reset link is invalid or has expired",
    });
  });

  async function resetToken(email: string): Promise<string> {
    await ageCodes(email);
    const since = smtp.received.length;
    expect((await anon().get(`/api/reset_password?email=${encodeURIComponent(email)}`)).success).toBe(true);
    const mail = await mailTo(email, since);
    return new URL(/(https?:\/\/\S+\/user\/reset\?\S+)/.exec(mail.text)?.[1] ?? "").searchParams.get("token") ?? "";
  }

  it("wrong tokens do not kill the link (a 32-character token has no guess limit)", async () => {
    const token = await resetToken("grace@example.com");
    const wrong = await Promise.all(
      Array.from({ length: 12 }, (_, i) => anon().post("/api/user/reset", { email: "grace@example.com", token: `${i}`.padEnd(32, "x") })),
    );
    for (const w of wrong) expect(w).toMatchObject({ success: false, message: "The reset link is invalid or has expired" });
    const done = await anon().post<string>("/api/user/reset", { email: "grace@example.com", token });
    expect(done.success, done.message).toBe(true);
  });

  it("an expired link is refused", async () => {
    const token = await resetToken("grace@example.com");
    await query(server, 'UPDATE "email_codes" SET "expires_at" = "created_at" - 1 WHERE "purpose" = \'reset\' AND "email" = $1', ["grace@example.com"]);
    expect(await anon().post("/api/user/reset", { email: "grace@example.com", token })).toMatchObject({
      success: false,
      message: "The reset link is invalid or has expired",
    });
  });

  it("an unknown address gets the same answer, the same cooldown, and no mail", async () => {
    const since = smtp.received.length;
    const known = await anon().get("/api/reset_password?email=erin@example.com");
    const unknown = await anon().get("/api/reset_password?email=nobody@example.com");
    expect(unknown).toEqual(known);
    expect(await anon().get("/api/reset_password?email=nobody@example.com")).toMatchObject({
      success: false,
      message: "Too many requests, please try again later",
    });
    await mailTo("erin@example.com", since);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.received.slice(since).some((m) => m.to.includes("nobody@example.com"))).toBe(false);
  });

  it("in Chinese; refuses without SMTP or without the server address, the same for any address", async () => {
    await ageCodes("erin@example.com");
    const since = smtp.received.length;
    expect((await anon("zh").get("/api/reset_password?email=erin@example.com")).message).toBe("如果该邮箱已注册，重置邮件将在几分钟内送达，请检查你的邮箱");
    expect((await mailTo("erin@example.com", since)).subject).toBe("Gate <Test> 密码重置");

    await setOptions(root, { SMTPServer: "" });
    try {
      for (const email of ["erin@example.com", "ghost@example.com"]) {
        expect(await anon().get(`/api/reset_password?email=${email}`)).toMatchObject({
          success: false,
          message: "The admin has not configured an SMTP mail server",
        });
      }
    } finally {
      await setOptions(root, { SMTPServer: "127.0.0.1" });
    }
    await setOptions(root, { ServerAddress: "" });
    try {
      expect(await anon().get("/api/reset_password?email=ghost@example.com")).toMatchObject({
        success: false,
        message: "The admin has not set the server address, so no reset link can be sent",
      });
    } finally {
      await setOptions(root, { ServerAddress: server.url });
    }
    expect(await anon().get("/api/reset_password?email=")).toMatchObject({ success: false, message: "Please enter email" });
  });

  it("the reset pages are public", async () => {
    for (const path of ["/reset", "/user/reset?email=a%40b.co&token=x"]) {
      const res = await fetch(server.url + path, { redirect: "manual" });
      expect(res.status, path).toBe(200);
    }
  });
});
