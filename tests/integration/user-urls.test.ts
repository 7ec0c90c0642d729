// Addresses a user gives never reach loopback (docs/outbound.md, "What is refused"): with
// fetch_setting.allow_private_ip ON, a user's webhook to 127.0.0.1 or localhost and an image
// URL on 127.0.0.1 in a chat request (on Gemini, whose adapter in other gateways downloads it,
// and on OpenAI, which passes it on) open no connection to a listener bound there (its accepted
// sockets are counted), while channels whose base URL is on 127.0.0.1 still serve. The console's
// typed fetches (OIDC discovery, update check) refused by the policy say which class was
// refused, in English and Chinese. Only loopback is ever connected to.
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../support/client";
import { loginAs, makeUser, setOptions, setupRoot } from "../support/accounts";
import { execDb } from "../support/db";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
let openaiUp: MockUpstream;
let geminiUp: MockUpstream;
let trap: net.Server;
let trapPort = 0;
let accepted = 0;
let user: { id: number; client: ApiClient };
let key = "";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  // a listener that only counts: nothing may ever connect to it
  trap = net.createServer((s) => {
    accepted++;
    s.destroy();
  });
  await new Promise<void>((r) => trap.listen(0, "127.0.0.1", r));
  trapPort = (trap.address() as AddressInfo).port;
  server = await startServer();
  openaiUp = await startMockUpstream("openai");
  geminiUp = await startMockUpstream("gemini");
  root = await setupRoot(server); // fetch_setting.allow_private_ip on: the channels below are on 127.0.0.1
  await setOptions(root, { ModelRatio: JSON.stringify({ "uu-gpt": 1, "uu-gem": 1 }), RetryTimes: "0" });
  for (const [name, type, up, model] of [
    ["uu-openai", 1, openaiUp, "uu-gpt"],
    ["uu-gemini", 24, geminiUp, "uu-gem"],
  ] as const) {
    const r = await root.post("/api/channel/", { name, type, key: up.key, base_url: up.url, models: model, group: "default" });
    expect(r.success, r.message).toBe(true);
  }
  user = await makeUser(server, root, "uu-user");
  expect((await root.put("/api/user/", { id: user.id, quota: 10_000_000 })).success).toBe(true);
  key = (await user.client.post<{ key: string }[]>("/api/token/", { name: "t", unlimited_quota: true })).data[0].key;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await openaiUp?.close();
  await geminiUp?.close();
  await new Promise((r) => trap?.close(r));
});

describe("with fetch_setting.allow_private_ip on", () => {
  it("an image URL on 127.0.0.1 in a chat request is never fetched; the channels on 127.0.0.1 serve", async () => {
    const image = `http://127.0.0.1:${trapPort}/x.png`;
    for (const [model, up] of [
      ["uu-gpt", openaiUp],
      ["uu-gem", geminiUp],
    ] as const) {
      const res = await fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          model,
          messages: [
            {
              role: "user",
              content: [
                { type: "text", text: "what is this?" },
                { type: "image_url", image_url: { url: image } },
              ],
            },
          ],
        }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      await res.json();
      // handed to the upstream as the URL it is
      expect(up.requests.at(-1)!.body, model).toContain(image);
    }
    await sleep(300);
    expect(accepted).toBe(0);
  });

  it("a user's webhook to 127.0.0.1 or localhost opens no connection: refused when saved (a literal) or when sent (a name, or a literal stored earlier)", async () => {
    const lo = await user.client.put("/api/user/setting", { notify_type: "webhook", webhook_url: `https://127.0.0.1:${trapPort}/hook` });
    expect(lo).toMatchObject({ success: false, message: "This webhook address cannot be used: it points to a loopback address" });
    const byName = await user.client.put("/api/user/setting", {
      notify_type: "webhook",
      webhook_url: `https://localhost:${trapPort}/hook`,
      webhook_secret: "s3cret-hook",
    });
    expect(byName.success, byName.message).toBe(true);
    const sent = await root.post(`/api/user/${user.id}/test_notification`);
    expect(sent).toMatchObject({ success: false, message: "The webhook address was refused: it points to a loopback address" });
    // a literal stored while an older version allowed it
    const stored = JSON.stringify({ notify_type: "webhook", webhook_url: `https://127.0.0.1:${trapPort}/hook`, webhook_secret: "" });
    await execDb(server, 'UPDATE "users" SET "setting" = $1 WHERE "id" = $2', [stored, user.id]);
    const literal = await root.post(`/api/user/${user.id}/test_notification`);
    expect(literal).toMatchObject({ success: false, message: "The webhook address was refused: it points to a loopback address" });
    await sleep(300);
    expect(accepted).toBe(0);
  });
});

describe("the console's typed fetches refused by the policy", () => {
  it("OIDC discovery and the update check name the class refused (en, zh); nothing is connected to", async () => {
    const rootZh = await loginAs(server, "root", "root-pass-123", "zh");
    await setOptions(root, { "fetch_setting.allow_private_ip": "false" });
    try {
      const wellKnown = `http://127.0.0.1:${trapPort}/.well-known/openid-configuration`;
      expect(await root.post("/api/option/oidc_discovery", { well_known: wellKnown })).toMatchObject({
        success: false,
        message:
          "Failed to fetch the OIDC configuration: The upstream address is a loopback address; it is allowed only when the root user turns on fetch_setting.allow_private_ip",
      });
      expect(await rootZh.post("/api/option/oidc_discovery", { well_known: `http://localhost:${trapPort}/.well-known/openid-configuration` })).toMatchObject({
        success: false,
        message: "获取 OIDC 配置失败：上游地址是本机回环地址，需超级管理员开启 fetch_setting.allow_private_ip 后才能访问",
      });
      await setOptions(root, { UpdateCheckUrl: `http://127.0.0.1:${trapPort}/release` });
      expect(await root.post("/api/option/update_check")).toMatchObject({
        success: false,
        message:
          "Check for updates failed: The upstream address is a loopback address; it is allowed only when the root user turns on fetch_setting.allow_private_ip",
      });
      // never allowed, whatever the option: refused before any socket
      await setOptions(root, { UpdateCheckUrl: "http://169.254.169.254/latest" });
      expect(await rootZh.post("/api/option/update_check")).toMatchObject({
        success: false,
        message: "检查更新失败：上游地址是云服务器元数据地址，不允许访问",
      });
      // any other failure keeps the generic message
      await setOptions(root, { UpdateCheckUrl: "http://no-such-host.invalid/release" });
      expect(await root.post("/api/option/update_check")).toMatchObject({ success: false, message: "Check for updates failed" });
    } finally {
      await setOptions(root, { "fetch_setting.allow_private_ip": "true", UpdateCheckUrl: "" });
    }
    await sleep(300);
    expect(accepted).toBe(0);
  });
});
