// The human check (docs/oauth.md, "The human check"): with TurnstileCheckEnabled on, login,
// passkey sign-in (its begin call), register, check-in, password reset, redeem and the e-mail
// code request are refused without
// a token the verifier (a local siteverify at TURNSTILE_VERIFY_URL) accepts, before anything
// else happens; with its success they proceed. Off: no check, the verifier is never asked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, ROOT_PASSWORD, setOptions, setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { startTurnstileMock } from "../support/oauth-mocks";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
let verifier: Awaited<ReturnType<typeof startTurnstileMock>>;
const FAILED_EN = "The human check failed";

beforeAll(async () => {
  verifier = await startTurnstileMock("ts-secret");
  server = await startServer({ env: { TURNSTILE_VERIFY_URL: verifier.url } });
  root = await setupRoot(server);
  await setOptions(root, { RegisterEnabled: "true", CheckInEnabled: "true", TurnstileSiteKey: "site-key", TurnstileSecretKey: "ts-secret" });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await verifier?.close();
});

describe("off", () => {
  it("no check and no call to the verifier", async () => {
    const before = verifier.calls.length;
    expect((await new ApiClient(server.url).login("root", ROOT_PASSWORD)).success).toBe(true);
    expect(verifier.calls.length).toBe(before);
  });
});

describe("on", () => {
  let user: ApiClient;
  beforeAll(async () => {
    user = (await makeUser(server, root, "human1")).client;
    await setOptions(root, { TurnstileCheckEnabled: "true" });
  });
  afterAll(async () => {
    await setOptions(root, { TurnstileCheckEnabled: "false" });
  });

  it("status advertises it", async () => {
    const s = await new ApiClient(server.url).get<{ turnstile_check: boolean; turnstile_site_key: string }>("/api/status");
    expect(s.data.turnstile_check).toBe(true);
    expect(s.data.turnstile_site_key).toBe("site-key");
  });

  it("login: refused without a token or with a bad one, passes with the verifier's success", async () => {
    const c = new ApiClient(server.url);
    const none = await c.post("/api/user/login", { username: "root", password: ROOT_PASSWORD });
    expect(none.success).toBe(false);
    expect(none.message).toBe(FAILED_EN);
    expect(c.cookie).toBe("");
    const bad = await c.post("/api/user/login?turnstile=wrong", { username: "root", password: ROOT_PASSWORD });
    expect(bad.message).toBe(FAILED_EN);
    const zh = await new ApiClient(server.url, "zh").post("/api/user/login?turnstile=wrong", { username: "root", password: ROOT_PASSWORD });
    expect(zh.message).toBe("人机验证失败");
    const ok = await c.post<{ id: number }>("/api/user/login?turnstile=pass", { username: "root", password: ROOT_PASSWORD });
    expect(ok.success, ok.message).toBe(true);
    const last = verifier.calls.at(-1)!;
    expect(last.secret).toBe("ts-secret");
    expect(last.response).toBe("pass");
    expect(last.remoteip).toBe("127.0.0.1");
  });

  it("the check comes before anything else: a wrong password behind a failed check is not even tried", async () => {
    const r = await new ApiClient(server.url).post("/api/user/login", { username: "root", password: "wrong-password" });
    expect(r.message).toBe(FAILED_EN);
  });

  it("register", async () => {
    const body = { username: "human2", password: "human-pass-1", password2: "human-pass-1" };
    expect((await new ApiClient(server.url).post("/api/user/register", body)).message).toBe(FAILED_EN);
    const ok = await new ApiClient(server.url).post("/api/user/register?turnstile=pass", body);
    expect(ok.success, ok.message).toBe(true);
  });

  it("check-in", async () => {
    expect((await user.post("/api/user/check_in")).message).toBe(FAILED_EN);
    const ok = await user.post("/api/user/check_in?turnstile=pass");
    expect(ok.success, ok.message).toBe(true);
  });

  it("password reset request and e-mail code request", async () => {
    const anon = new ApiClient(server.url);
    expect((await anon.get("/api/reset_password?email=a@example.com")).message).toBe(FAILED_EN);
    expect((await anon.get("/api/reset_password?email=a@example.com&turnstile=pass")).message).not.toBe(FAILED_EN);
    expect((await anon.get("/api/verification?email=a@example.com")).message).toBe(FAILED_EN);
    expect((await anon.get("/api/verification?email=a@example.com&turnstile=pass")).message).not.toBe(FAILED_EN);
  });

  it("redeem", async () => {
    expect((await user.post("/api/user/topup", { key: "0123456789abcdef0123456789abcdef" })).message).toBe(FAILED_EN);
    const r = await user.post("/api/user/topup?turnstile=pass", { key: "0123456789abcdef0123456789abcdef" });
    expect(r.message).not.toBe(FAILED_EN);
  });

  it("passkey sign-in: login/begin is refused without a valid token", async () => {
    await setOptions(root, { ServerAddress: "http://localhost:3999", PasskeyLoginEnabled: "true" });
    try {
      const c = new ApiClient(server.url);
      expect((await c.post("/api/user/passkey/login/begin")).message).toBe(FAILED_EN);
      expect((await c.post("/api/user/passkey/login/begin?turnstile=wrong")).message).toBe(FAILED_EN);
      const ok = await c.post<{ rpId: string; challenge: string }>("/api/user/passkey/login/begin?turnstile=pass");
      expect(ok.success, ok.message).toBe(true);
      expect(ok.data.rpId).toBe("localhost");
      expect(verifier.calls.at(-1)!.response).toBe("pass");
    } finally {
      await setOptions(root, { ServerAddress: "", PasskeyLoginEnabled: "false" });
    }
  });

  it("a session made with the check works afterwards without it", async () => {
    const c = await (async () => {
      const x = new ApiClient(server.url);
      const r = await x.post<{ id: number }>("/api/user/login?turnstile=pass", { username: "human2", password: "human-pass-1" });
      expect(r.success).toBe(true);
      x.userId = r.data.id;
      return x;
    })();
    expect((await c.get("/api/user/self")).success).toBe(true);
  });
});
