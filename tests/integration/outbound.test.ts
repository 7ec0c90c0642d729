// The outbound policy (docs/outbound.md) through the real server: with
// fetch_setting.allow_private_ip off, a channel, a model list, a channel test and a relay
// call aimed at loopback (127.0.0.1, [::1], 2130706433, 0x7f.0.0.1, and localhost, a name
// that resolves to it) are refused with the policy's message; redirects are checked at every
// hop (fetch_models) or not followed (relay); with the option on, local upstreams work, and
// turning it off again closes the kept-alive connections. Every connection made here is to
// loopback: the never-allowed targets (0.0.0.0, metadata) are refused before connecting.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";

const LOOPBACK = "The upstream address is a loopback address; it is allowed only when the root user turns on fetch_setting.allow_private_ip";
const LOOPBACK_ZH = "上游地址是本机回环地址，需超级管理员开启 fetch_setting.allow_private_ip 后才能访问";
const UNSPECIFIED = "The upstream address is an unspecified address (0.0.0.0 or ::), which is never allowed";
const METADATA = "The upstream address is a cloud metadata address, which is never allowed";
const LINK_LOCAL = "The upstream address is a link-local address, which is never allowed";

let server: TestServer;
let root: ApiClient;
let key: string;
let mock: MockUpstream;
let redirector: http.Server;
let redirectTo = "";
let lister: http.Server; // answers /v1/models (the mock upstream has no model list)
let listerPort = 0;
let port = 0; // the mock's port

const forms = () => ({
  "127.0.0.1": `http://127.0.0.1:${port}`,
  "[::1]": `http://[::1]:${port}`,
  "2130706433": `http://2130706433:${port}`,
  "0x7f.0.0.1": `http://0x7f.0.0.1:${port}`,
  localhost: `http://localhost:${port}`,
});
const LITERALS = ["127.0.0.1", "[::1]", "2130706433", "0x7f.0.0.1"] as const;

const allowPrivate = (on: boolean) => setOptions(root, { "fetch_setting.allow_private_ip": on ? "true" : "false" });

async function addChannel(name: string, base_url: string, models: string) {
  const r = await root.post("/api/channel/", { type: 1, group: "default", name, key: mock.key, base_url, models });
  return r;
}
async function channelId(name: string): Promise<number> {
  const list = await root.get<{ items: Array<{ id: number; name: string }> }>("/api/channel/?p=1&page_size=100");
  return list.data.items.find((c) => c.name === name)!.id;
}
const chat = (model: string) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hello" }] }),
  });
const fetchModels = (base_url: string, client = root) => client.post<string[]>("/api/channel/fetch_models", { type: 1, base_url, key: mock.key });
const testChannel = (id: number) => root.call<never>("GET", `/api/channel/test/${id}`) as Promise<{ success: boolean; message: string }>;

beforeAll(async () => {
  server = await startServer();
  mock = await startMockUpstream("openai");
  port = Number(new URL(mock.url).port);
  redirector = http.createServer((req, res) => {
    res.writeHead(302, { location: redirectTo + (req.url ?? "/") });
    res.end();
  });
  await new Promise<void>((r) => redirector.listen(0, "127.0.0.1", r));
  lister = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: [{ id: "listed-model" }] }));
  });
  await new Promise<void>((r) => lister.listen(0, "127.0.0.1", r));
  listerPort = (lister.address() as AddressInfo).port;
  root = await setupRoot(server, "root", { allowPrivateIp: false });
  const models = ["m-local", ...Object.keys(forms()).map((f) => `m-${f}`), "m-redirect"];
  await setOptions(root, { ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))), RetryTimes: "0" });
  const user = await makeUser(server, root, "olive");
  expect((await root.put("/api/user/", { id: user.id, quota: 1_000_000 })).success).toBe(true);
  key = (await user.client.post<{ key: string }[]>("/api/token/", { name: "t", unlimited_quota: true })).data[0].key;
});

afterAll(async () => {
  await server?.stop();
  await mock?.close();
  await new Promise((r) => redirector?.close(r));
  await new Promise((r) => lister?.close(r));
});

describe("with fetch_setting.allow_private_ip off (the default)", () => {
  it("is off by default, and only the root may change it", async () => {
    const opts = await root.get<Array<{ key: string; value: string }>>("/api/option/");
    expect(opts.data.find((o) => o.key === "fetch_setting.allow_private_ip")?.value).toBe("false");
    const admin = await makeUser(server, root, "adam", 10);
    expect((await admin.client.put("/api/option/", { key: "fetch_setting.allow_private_ip", value: "true" })).status).toBe(403);
    expect((await root.put("/api/option/", { key: "fetch_setting.allow_private_ip", value: "yes" })).success).toBe(false);
  });

  it("refuses a channel whose base URL is a loopback literal, in every form", async () => {
    for (const f of LITERALS) {
      const r = await addChannel(`lit-${f}`, forms()[f], `m-${f}`);
      expect(r, f).toMatchObject({ success: false, message: LOOPBACK });
    }
    const zh = new ApiClient(server.url, "zh");
    zh.cookie = root.cookie;
    zh.userId = root.userId;
    expect((await zh.post("/api/channel/", { type: 1, name: "zh", key: "k", base_url: forms()["127.0.0.1"], models: "m" })).message).toBe(LOOPBACK_ZH);
    // never-allowed ranges are refused too, whatever the option
    expect((await addChannel("zero", `http://0.0.0.0:${port}`, "m")).message).toBe(UNSPECIFIED);
    expect((await addChannel("imds", "http://169.254.169.254", "m")).message).toBe(METADATA);
    expect((await addChannel("mapped", "http://[::ffff:169.254.169.254]", "m")).message).toBe(METADATA);
    expect((await addChannel("ll", "http://[fe80::1]", "m")).message).toBe(LINK_LOCAL);
  });

  it("refuses fetch_models to every loopback form, localhost included (checked at connect time)", async () => {
    for (const [f, url] of Object.entries(forms())) {
      const r = await fetchModels(url);
      expect(r, f).toMatchObject({ success: false, message: LOOPBACK });
    }
    expect(mock.requests.length).toBe(0);
  });

  it("refuses a channel test and a relay call to localhost at connect time", async () => {
    expect((await addChannel("named", forms().localhost, "m-localhost")).success).toBe(true); // a name: judged when connecting
    const t = await testChannel(await channelId("named"));
    expect(t.success).toBe(false);
    expect(t.message).toBe(LOOPBACK);
    const res = await chat("m-localhost");
    expect(res.status).toBe(502);
    expect(await res.text()).toContain(LOOPBACK);
    expect(mock.requests.length).toBe(0);
  });
});

describe("with fetch_setting.allow_private_ip on", () => {
  it("local upstreams work; turning the option off refuses the same channels again, kept-alive connections included", async () => {
    await allowPrivate(true);
    for (const f of LITERALS) expect((await addChannel(`lit-${f}`, forms()[f], `m-${f}`)).success, f).toBe(true);
    expect((await fetchModels(`http://127.0.0.1:${listerPort}`)).data).toEqual(["listed-model"]);
    expect((await fetchModels(`http://localhost:${listerPort}`)).data).toEqual(["listed-model"]);
    expect((await testChannel(await channelId("lit-127.0.0.1"))).success).toBe(true);
    expect((await chat("m-127.0.0.1")).status).toBe(200);
    expect((await chat("m-2130706433")).status).toBe(200);
    expect((await chat("m-localhost")).status).toBe(200);
    // never-allowed ranges stay refused
    expect((await addChannel("zero", `http://0.0.0.0:${port}`, "m")).message).toBe(UNSPECIFIED);

    await allowPrivate(false);
    const before = mock.requests.length;
    for (const f of ["127.0.0.1", "[::1]", "2130706433", "0x7f.0.0.1", "localhost"] as const) {
      const res = await chat(`m-${f}`);
      expect(res.status, f).toBe(502);
      expect(await res.text(), f).toContain(LOOPBACK);
      const t = await testChannel(await channelId(f === "localhost" ? "named" : `lit-${f}`));
      expect(t, f).toMatchObject({ success: false, message: LOOPBACK });
    }
    expect(mock.requests.length).toBe(before);
  });

  it("channel calls follow no redirect: fetch_models and the relay (outboundFetch's hops: tests/unit/net)", async () => {
    await allowPrivate(true);
    const hop = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
    redirectTo = `http://localhost:${listerPort}`; // a target the policy would allow
    expect(await fetchModels(hop)).toMatchObject({ success: false, message: "The upstream request failed: HTTP 302" });
    redirectTo = "http://[::ffff:169.254.169.254]";
    expect(await fetchModels(hop)).toMatchObject({ success: false, message: "The upstream request failed: HTTP 302" });
    await allowPrivate(false);
    // the first hop itself is now refused
    expect(await fetchModels(hop)).toMatchObject({ success: false, message: LOOPBACK });

    await allowPrivate(true);
    expect((await addChannel("redirect", hop, "m-redirect")).success).toBe(true);
    const before = mock.requests.length;
    const res = await chat("m-redirect");
    expect(res.status).toBe(502);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("the upstream answered with a redirect (HTTP 302), which is not followed");
    expect(mock.requests.length).toBe(before); // the redirect to the mock was not followed
  });
});
