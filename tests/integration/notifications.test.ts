// Quota warnings and webhooks end to end (docs/notifications.md), on the built server with a
// real SMTP server (tests/support/smtp.ts), a mock upstream for relay calls, and an HTTPS
// webhook receiver on 127.0.0.1 whose self-signed certificate (made here with openssl) the
// server trusts through NODE_EXTRA_CA_CERTS. A user's webhook never reaches loopback from the
// server itself, whatever fetch_setting.allow_private_ip says (docs/outbound.md), so the
// deliveries reach the receiver through a worker stand-in (WorkerUrl, new-api's protocol) that
// fetches the address it is handed, as a deployed worker would. Only loopback is ever connected to.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { loginAs, makeUser, setOptions, setupRoot } from "../support/accounts";
import { execDb, queryDb } from "../support/db";
import { startMockUpstream, type MockUpstream } from "../support/mock-upstreams";
import { startServer, type TestServer } from "../support/server";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "../support/smtp";

let server: TestServer;
let nodeB: TestServer | undefined;
let root: ApiClient;
let smtp: TestSmtp;
let mock: MockUpstream;
let certDir: string;
let hook: Receiver;
let worker: http.Server;
let workerUrl = "";
let certPem: Buffer;

// ModelPrice $0.01 a call = 5000 units; users hold 12000 and warn below 10000, so each
// first call crosses (12000 → 7000).
const PRICE_UNITS = 5000;
const START = 12_000;
const THRESHOLD = 10_000;
const SECRET = "whsec-notify-test-0123";
// a second node of the same installation shares its secrets (sessions, encrypted channel keys)
const SHARED = { SESSION_SECRET: randomBytes(32).toString("hex"), ENCRYPTION_KEY: randomBytes(32).toString("hex") };

type HookRequest = { headers: Record<string, string | string[] | undefined>; body: string; json: Record<string, unknown> };
type Receiver = { port: number; requests: HookRequest[]; statuses: number[]; readonly connections: number; close(): Promise<void> };

// An HTTPS receiver answering the queued statuses in order (200 once the queue is empty).
async function startReceiver(key: Buffer, cert: Buffer): Promise<Receiver> {
  const requests: HookRequest[] = [];
  const statuses: number[] = [];
  const srv = https.createServer({ key, cert }, (req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // recorded as is
      }
      requests.push({ headers: req.headers, body, json });
      res.statusCode = statuses.shift() ?? 200;
      res.end("ok");
    });
  });
  // every accepted TCP connection, before TLS: a refused address must open none
  let connections = 0;
  srv.on("connection", () => connections++);
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return {
    port: (srv.address() as AddressInfo).port,
    requests,
    statuses,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((r) => srv.close(() => r())),
  };
}

// A worker stand-in: POST {url, key, method, headers, body} fetches url (trusting the
// receiver's certificate) and answers its status and body.
async function startWorker(): Promise<http.Server> {
  const srv = http.createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (text += c));
    req.on("end", () => {
      const p = JSON.parse(text) as { url: string; method: string; headers: Record<string, string>; body?: string };
      const out = https.request(p.url, { method: p.method, headers: p.headers, ca: certPem }, (up) => {
        res.writeHead(up.statusCode ?? 502);
        up.pipe(res);
      });
      out.on("error", () => {
        res.writeHead(502);
        res.end();
      });
      out.end(p.body);
    });
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return srv;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

// The decoded subject and text parts of a received message (encoded words, quoted-printable, base64).
function decodeWords(s: string): string {
  return s.replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=\s*/gi, (_w, enc: string, data: string) =>
    enc.toUpperCase() === "B" ? Buffer.from(data, "base64").toString("utf8") : qp(data.replace(/_/g, " ")),
  );
}
function qp(s: string): string {
  const bytes: number[] = [];
  const text = s.replace(/=\r?\n/g, "");
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "=" && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i], "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}
function readMail(m: ReceivedMail): { subject: string; text: string } {
  const [head] = m.raw.split(/\r?\n\r?\n/);
  const subjectLine = head.replace(/\r?\n[ \t]+/g, " ").match(/^Subject: (.*)$/im)?.[1] ?? "";
  let text = "";
  const part = /Content-Transfer-Encoding: (quoted-printable|base64|7bit)\r?\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)(?=\r?\n--|$)/gi;
  for (let p = part.exec(m.raw); p; p = part.exec(m.raw)) {
    const enc = p[1].toLowerCase();
    text += (enc === "base64" ? Buffer.from(p[2].replace(/\s+/g, ""), "base64").toString("utf8") : enc === "quoted-printable" ? qp(p[2]) : p[2]) + "\n";
  }
  return { subject: decodeWords(subjectLine), text };
}

const mailsTo = (addr: string) => smtp.received.filter((m) => m.to.includes(addr));

async function chat(key: string, via: TestServer = server): Promise<void> {
  const r = await fetch(`${via.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "warn-model", messages: [{ role: "user", content: "hi" }], max_tokens: 5 }),
  });
  expect(r.status, await r.clone().text()).toBe(200);
  await r.json();
}

async function userWithKey(name: string, locale: "zh" | "en" = "en"): Promise<{ id: number; client: ApiClient; key: string }> {
  const u = await makeUser(server, root, name);
  const client = locale === "en" ? u.client : await loginAs(server, name, "user-pass-1", locale);
  const t = await client.post<{ key: string }[]>("/api/token/", { name: "warn", unlimited_quota: true });
  expect(t.success, t.message).toBe(true);
  await setQuota(u.id, START);
  return { id: u.id, client, key: t.data[0].key };
}

async function setQuota(id: number, quota: number, extra: Record<string, unknown> = {}) {
  const r = await root.put("/api/user/", Object.assign({ id, quota }, extra));
  expect(r.success, r.message).toBe(true);
}

const rawSetting = async (id: number) => (await queryDb<{ setting: string }>(server, 'SELECT "setting" FROM "users" WHERE "id" = $1', [id]))[0].setting;
const storedSecret = async (id: number) => String((JSON.parse(await rawSetting(id)) as { webhook_secret?: unknown }).webhook_secret ?? "");

const warnedAt = async (id: number) =>
  Number((await queryDb<{ quota_warned_at: unknown }>(server, 'SELECT "quota_warned_at" FROM "users" WHERE "id" = $1', [id]))[0].quota_warned_at);

beforeAll(async () => {
  certDir = mkdtempSync(path.join(tmpdir(), "gw-hook-cert-"));
  const keyPath = path.join(certDir, "key.pem");
  const certPath = path.join(certDir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      keyPath,
      "-out",
      certPath,
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost",
    ],
    { stdio: "ignore" },
  );
  certPem = readFileSync(certPath);
  hook = await startReceiver(readFileSync(keyPath), certPem);
  worker = await startWorker();
  workerUrl = `http://127.0.0.1:${(worker.address() as AddressInfo).port}`;
  server = await startServer({ env: Object.assign({ NODE_EXTRA_CA_CERTS: certPath }, SHARED) });
  smtp = await startTestSmtp();
  mock = await startMockUpstream("openai");
  root = await setupRoot(server); // fetch_setting.allow_private_ip on: the SMTP server, the upstream and the worker are on 127.0.0.1
  await setOptions(root, {
    WorkerUrl: workerUrl,
    SMTPServer: "127.0.0.1",
    SMTPPort: String(smtp.port),
    SMTPFrom: "gateway@example.com",
    SystemName: "Acme AI",
    ServerAddress: "https://gw.example.com",
    ModelPrice: JSON.stringify({ "warn-model": 0.01 }),
  });
  const ch = await root.post("/api/channel/", { name: "warn", type: 1, key: mock.key, base_url: mock.url, models: "warn-model", group: "default" });
  expect(ch.success, ch.message).toBe(true);
}, 60_000);

afterAll(async () => {
  await nodeB?.stop();
  await server?.stop();
  await smtp?.close();
  await mock?.close();
  await hook?.close();
  await new Promise((r) => worker?.close(r));
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

describe("quota warnings by e-mail", () => {
  it("a charge that crosses the threshold sends one mail, in the user's language; a second crossing within two hours none; after two hours one again", async () => {
    const alice = await userWithKey("alice");
    const saved = await alice.client.put("/api/user/setting", {
      notify_type: "email",
      quota_warning_threshold: THRESHOLD,
      notification_email: "alice@example.com",
    });
    expect(saved.success, saved.message).toBe(true);

    await chat(alice.key); // 12000 → 7000
    const [mail] = await until("the warning mail", () => mailsTo("alice@example.com").length === 1 && mailsTo("alice@example.com"));
    const { subject, text } = readMail(mail);
    expect(subject).toBe("Acme AI: your balance is running low");
    expect(text).toContain("Hello alice");
    expect(text).toContain("$0.01 (7,000)"); // the balance after the charge
    expect(text).toContain("$0.02 (10,000)"); // the threshold
    expect(text).toContain("https://gw.example.com/app/wallet");
    const first = await warnedAt(alice.id);
    expect(first).toBeGreaterThan(Date.now() / 1000 - 60);

    // still below: no second mail
    await chat(alice.key); // 7000 → 2000
    // topped up, then crossing again within the two hours: none
    await setQuota(alice.id, START);
    await chat(alice.key);
    await sleep(1500);
    expect(mailsTo("alice@example.com")).toHaveLength(1);
    expect(await warnedAt(alice.id)).toBe(first);

    // two hours later (the column set back, as the clock would): one again
    await execDb(server, 'UPDATE "users" SET "quota_warned_at" = $1 WHERE "id" = $2', [first - 7201, alice.id]);
    await setQuota(alice.id, START); // a console write: this node reads the user again
    await chat(alice.key);
    await until("the second warning", () => mailsTo("alice@example.com").length === 2);
    expect(await warnedAt(alice.id)).toBeGreaterThan(first - 7201);
    await sleep(500);
    expect(mailsTo("alice@example.com")).toHaveLength(2);
  });

  it("a fresh install warns a user without a threshold of their own below 500000 units ($1), the spec's default", async () => {
    const dana = await userWithKey("dana");
    await setQuota(dana.id, START, { email: "dana@example.com" });
    await chat(dana.key); // 7000 units left, far below $1
    await until("dana's warning", () => mailsTo("dana@example.com").length === 1);
    expect(await warnedAt(dana.id)).toBeGreaterThan(0);
  });

  it("without a threshold of the user's own, QuotaRemindThreshold applies; the account's e-mail, in Chinese for a user of the Chinese console", async () => {
    await setOptions(root, { QuotaRemindThreshold: String(THRESHOLD) });
    const bob = await userWithKey("bob", "zh");
    await setQuota(bob.id, START, { email: "bob@example.com" });
    await chat(bob.key);
    const [mail] = await until("bob's warning", () => mailsTo("bob@example.com").length === 1 && mailsTo("bob@example.com"));
    const { subject, text } = readMail(mail);
    expect(subject).toBe("Acme AI：您的额度即将用尽");
    expect(text).toContain("剩余额度为 $0.01 (7,000)");
    await setOptions(root, { QuotaRemindThreshold: "500000" });
  });

  it("no warning above the threshold, nor when the user has no address (nothing is claimed then)", async () => {
    const erin = await userWithKey("erin");
    await erin.client.put("/api/user/setting", { notify_type: "email", quota_warning_threshold: 1000, notification_email: "erin@example.com" });
    await chat(erin.key); // 7000, above 1000
    const nobody = await userWithKey("nomail");
    await nobody.client.put("/api/user/setting", { notify_type: "email", quota_warning_threshold: THRESHOLD });
    await chat(nobody.key);
    await sleep(1500);
    expect(mailsTo("erin@example.com")).toHaveLength(0);
    expect(await warnedAt(erin.id)).toBe(0);
    expect(await warnedAt(nobody.id)).toBe(0);
  });
});

describe("webhooks", () => {
  it("a crossing POSTs the documented JSON with the Bearer secret, retried on 500 with backoff", async () => {
    const carol = await userWithKey("carol");
    const url = `https://localhost:${hook.port}/hook`;
    const saved = await carol.client.put("/api/user/setting", {
      notify_type: "webhook",
      webhook_url: url,
      webhook_secret: SECRET,
      quota_warning_threshold: THRESHOLD,
    });
    expect(saved.success, saved.message).toBe(true);
    expect(JSON.stringify(saved)).not.toContain(SECRET);
    // sealed at rest, never answered: the user's own view and the root's say only that one is set
    const sealed = await storedSecret(carol.id);
    expect(sealed).toMatch(/^v1\./);
    expect(await rawSetting(carol.id)).not.toContain(SECRET);
    for (const [who, path] of [
      [carol.client, "/api/user/self"],
      [root, `/api/user/${carol.id}`],
    ] as const) {
      const r = await who.get<{ setting: string }>(path);
      expect(r.success, r.message).toBe(true);
      expect(JSON.stringify(r)).not.toContain(SECRET);
      expect(JSON.stringify(r)).not.toContain(sealed);
      expect(JSON.parse(r.data.setting)).toMatchObject({ webhook_secret_set: true });
    }
    const before = hook.requests.length;
    hook.statuses.push(500, 500);
    await chat(carol.key);
    await until("three tries", () => hook.requests.length - before === 3, 15_000);
    const tries = hook.requests.slice(before);
    for (const r of tries) {
      expect(r.headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(r.headers["content-type"]).toContain("application/json");
    }
    const body = tries[2].json;
    expect(body).toMatchObject({ type: "quota_warning", title: "Acme AI: your balance is running low" });
    expect(body.values).toMatchObject({
      system_name: "Acme AI",
      username: "carol",
      balance: START - PRICE_UNITS,
      threshold: THRESHOLD,
      topup_url: "https://gw.example.com/app/wallet",
    });
    expect(String(body.content)).toContain("$0.01 (7,000)");
    expect(typeof body.timestamp).toBe("number");
    expect(Math.abs((body.timestamp as number) - Date.now() / 1000)).toBeLessThan(120);
    await sleep(2500);
    expect(hook.requests.length - before).toBe(3); // bounded: no fourth try
    expect(server.logs()).not.toContain(SECRET);
    // saved again with the secret field empty: the stored secret is kept as it was, and sent
    const again = await carol.client.put("/api/user/setting", {
      notify_type: "webhook",
      webhook_url: url,
      webhook_secret: "",
      quota_warning_threshold: THRESHOLD,
    });
    expect(again.success, again.message).toBe(true);
    expect(await storedSecret(carol.id)).toBe(sealed);
    const tested = await root.post(`/api/user/${carol.id}/test_notification`);
    expect(tested.success, tested.message).toBe(true);
    expect(hook.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it("a secret left in plaintext by an older version is sealed at start-up, and still sent", async () => {
    const kim = await userWithKey("kim");
    const old = "whsec-old-plaintext-5521";
    const setting = JSON.stringify({ notify_type: "webhook", webhook_url: `https://localhost:${hook.port}/hook`, webhook_secret: old });
    await execDb(server, 'UPDATE "users" SET "setting" = $1 WHERE "id" = $2', [setting, kim.id]);
    // a node of the new version starting on this database (same ENCRYPTION_KEY)
    const next = await startServer({ databaseUrl: server.databaseUrl, dbKind: server.dbKind, env: Object.assign({ DATA_DIR: server.dataDir }, SHARED) });
    try {
      expect(next.logLines().find((l) => l.msg === "sealed the webhook secrets of users stored in plaintext")).toMatchObject({ area: "boot", users: 1 });
      expect(next.logs()).not.toContain(old);
    } finally {
      await next.stop();
    }
    expect(await storedSecret(kim.id)).toMatch(/^v1\./);
    expect(await rawSetting(kim.id)).not.toContain(old);
    const before = hook.requests.length;
    const r = await root.post(`/api/user/${kim.id}/test_notification`);
    expect(r.success, r.message).toBe(true);
    expect(hook.requests.length).toBe(before + 1);
    expect(hook.requests.at(-1)!.headers.authorization).toBe(`Bearer ${old}`);
  });

  it("refused when saved: http://, a loopback IP literal and [::1] with private addresses allowed; clear messages in both languages", async () => {
    const dave = await userWithKey("dave");
    const http = await dave.client.put("/api/user/setting", { notify_type: "webhook", webhook_url: "http://hooks.example.com/x" });
    expect(http).toMatchObject({ success: false, message: "The webhook address must start with https://" });
    const daveZh = await loginAs(server, "dave", "user-pass-1", "zh");
    expect(await daveZh.put("/api/user/setting", { notify_type: "webhook", webhook_url: "http://hooks.example.com/x" })).toMatchObject({
      success: false,
      message: "Webhook地址必须以https://开头",
    });
    // fetch_setting.allow_private_ip is on here (the root's channels may reach loopback); a user's address may not
    const lo = await dave.client.put("/api/user/setting", { notify_type: "webhook", webhook_url: `https://127.0.0.1:${hook.port}/hook` });
    expect(lo.success).toBe(false);
    expect(lo.message).toBe("This webhook address cannot be used: it points to a loopback address");
    const v6 = await daveZh.put("/api/user/setting", { notify_type: "webhook", webhook_url: `https://[::1]:${hook.port}/hook` });
    expect(v6.success).toBe(false);
    expect(v6.message).toBe("Webhook 地址不可用：它指向本机回环地址");
    const lan = await dave.client.put("/api/user/setting", { notify_type: "webhook", webhook_url: "https://192.168.1.20/hook" });
    expect(lan.message).toBe("This webhook address cannot be used: it points to a private network address");
    const meta = await dave.client.put("/api/user/setting", { notify_type: "webhook", webhook_url: "https://169.254.169.254/latest" });
    expect(meta.message).toMatch(/metadata/);
    // nothing was stored
    const self = await dave.client.get<{ setting: string }>("/api/user/self");
    expect(self.data.setting).not.toContain("127.0.0.1");
  });

  it("refused when sent, with private addresses allowed and no worker: a name that resolves to 127.0.0.1, and a loopback literal saved by an older version; the receiver accepts no connection", async () => {
    const frank = await userWithKey("frank");
    const byName = await frank.client.put("/api/user/setting", {
      notify_type: "webhook",
      webhook_url: `https://localhost:${hook.port}/hook`,
      webhook_secret: SECRET,
      quota_warning_threshold: THRESHOLD,
    });
    expect(byName.success, byName.message).toBe(true); // names are judged when connecting
    const grace = await userWithKey("grace");
    const literal = JSON.stringify({ notify_type: "webhook", webhook_url: `https://[::1]:${hook.port}/hook`, webhook_secret: "" });
    await execDb(server, 'UPDATE "users" SET "setting" = $1 WHERE "id" = $2', [literal, grace.id]);
    const before = hook.requests.length;
    const sockets = hook.connections;
    await setOptions(root, { WorkerUrl: "" });
    try {
      const r = await root.post(`/api/user/${frank.id}/test_notification`);
      expect(r.success).toBe(false);
      expect(r.message).toBe("The webhook address was refused: it points to a loopback address");
      // the quota warning's delivery is the same deliver(): a crossing sends nothing either
      await chat(frank.key);
      const g = await root.post(`/api/user/${grace.id}/test_notification`);
      expect(g.success).toBe(false);
      expect(g.message).toMatch(/loopback/);
      await sleep(500);
      expect(hook.connections).toBe(sockets);
      expect(hook.requests.length).toBe(before);
      expect(JSON.stringify([r, g])).not.toContain(SECRET);
    } finally {
      await setOptions(root, { WorkerUrl: workerUrl });
    }
    // through the worker, the name reaches the receiver (the worker fetches it, not the server)
    const ok = await root.post(`/api/user/${frank.id}/test_notification`);
    expect(ok, ok.message).toMatchObject({ success: true, message: "The test notification was sent to the webhook address" });
    expect(hook.requests.length).toBe(before + 1);
    expect(hook.requests.at(-1)!.json).toMatchObject({ type: "test" });
  });
});

describe("root test notification (POST /api/user/{id}/test_notification)", () => {
  it("sends through the user's channel, or says clearly why not; root only; never a secret", async () => {
    const henry = await userWithKey("henry");
    // e-mail chosen, no address at all
    let r = await root.post(`/api/user/${henry.id}/test_notification`);
    expect(r).toMatchObject({ success: false, message: "The user has no e-mail address for notifications (no notification e-mail and no bound e-mail)" });
    // an address, sent
    await henry.client.put("/api/user/setting", { notify_type: "email", notification_email: "henry@example.com" });
    r = await root.post(`/api/user/${henry.id}/test_notification`);
    expect(r).toMatchObject({ success: true, message: "The test notification was sent to henry@example.com" });
    const [mail] = await until("the test mail", () => mailsTo("henry@example.com").length === 1 && mailsTo("henry@example.com"));
    expect(readMail(mail).subject).toBe("Acme AI: test notification");
    // SMTP not configured
    await setOptions(root, { SMTPServer: "" });
    try {
      r = await root.post(`/api/user/${henry.id}/test_notification`);
      expect(r).toMatchObject({ success: false, message: "The admin has not configured an SMTP mail server" });
    } finally {
      await setOptions(root, { SMTPServer: "127.0.0.1" });
    }
    // a webhook answering 503: one try, the status named
    await henry.client.put("/api/user/setting", { notify_type: "webhook", webhook_url: `https://localhost:${hook.port}/hook`, webhook_secret: SECRET });
    const before = hook.requests.length;
    hook.statuses.push(503);
    r = await root.post(`/api/user/${henry.id}/test_notification`);
    expect(r).toMatchObject({ success: false, message: "The webhook request failed: HTTP 503" });
    expect(hook.requests.length).toBe(before + 1);
    expect(hook.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);
    // the test neither claims nor moves the warning time
    expect(await warnedAt(henry.id)).toBe(0);
    // in Chinese for a Chinese console
    const rootZh = await loginAs(server, "root", "root-pass-123", "zh");
    hook.statuses.push(502);
    expect(await rootZh.post(`/api/user/${henry.id}/test_notification`)).toMatchObject({ success: false, message: "Webhook 请求失败：HTTP 502" });
    // root only
    const admin = await makeUser(server, root, "admin1", 10);
    const forbidden = await admin.client.post(`/api/user/${henry.id}/test_notification`);
    expect(forbidden).toMatchObject({ success: false, status: 403 });
    expect((await henry.client.post(`/api/user/${henry.id}/test_notification`)).success).toBe(false);
    expect(await root.post(`/api/user/999999/test_notification`)).toMatchObject({ success: false });
    expect(server.logs()).not.toContain(SECRET);
  });
});

// Several nodes share a PostgreSQL database (a SQLite file has one server process).
describe.skipIf(process.env.TEST_DB !== "postgresql")("several nodes", () => {
  it("two nodes charging the same user at once send one warning (the conditional update on quota_warned_at)", async () => {
    nodeB = await startServer({
      databaseUrl: server.databaseUrl,
      dbKind: server.dbKind,
      env: Object.assign({ NODE_EXTRA_CA_CERTS: path.join(certDir, "cert.pem") }, SHARED),
    });
    const ivy = await userWithKey("ivy");
    await setQuota(ivy.id, 22_000);
    await ivy.client.put("/api/user/setting", { notify_type: "email", quota_warning_threshold: 20_000, notification_email: "ivy@example.com" });
    // 22000 → 12000 over four calls on two nodes, every one of them leaving the balance below 20000
    await Promise.all([chat(ivy.key, server), chat(ivy.key, nodeB), chat(ivy.key, server), chat(ivy.key, nodeB)]);
    await until("ivy's warning", () => mailsTo("ivy@example.com").length >= 1);
    await sleep(1500);
    expect(mailsTo("ivy@example.com")).toHaveLength(1);
  });
});
