// WorkerUrl / WorkerValidKey (docs/outbound.md, "Worker"): a typed URL is fetched through
// the worker when WorkerUrl is set (new-api's protocol: POST {url, key, method, headers, body}),
// directly otherwise (a console URL under fetch_setting.allow_private_ip, a user's URL never to
// loopback); a redirect the worker hands back is followed through the worker again.
// The worker and the typed site are local stand-ins on 127.0.0.1.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ALLOW_PRIVATE_IP_OPTION } from "@/lib/net/outbound";
import { fetchConsoleUrl, fetchUserUrl, workerEnabled } from "@/lib/net/worker";
import { sendWebhook } from "@/lib/notify/webhook";
import { applyOption } from "@/lib/options/store";

type Seen = { url: string; key: string; method: string; headers: Record<string, string>; body?: string; follow_redirects: boolean };
let worker: http.Server;
let site: http.Server;
let workerUrl = "";
let siteUrl = "";
let seen: Seen[] = [];
let siteHits = 0;

const listen = async (s: http.Server) => {
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  site = http.createServer((req, res) => {
    siteHits++;
    res.end(`site ${req.url}`);
  });
  worker = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const payload = JSON.parse(text) as Seen;
      seen.push(payload);
      if (payload.url.endsWith("/moved")) {
        res.writeHead(302, { location: "/landing" });
        return res.end();
      }
      res.end(`worker fetched ${payload.url} with ${payload.method}`);
    });
  });
  siteUrl = await listen(site);
  workerUrl = await listen(worker);
  applyOption(ALLOW_PRIVATE_IP_OPTION, "true");
});
afterAll(async () => {
  applyOption("WorkerUrl", "");
  applyOption("WorkerValidKey", "");
  applyOption(ALLOW_PRIVATE_IP_OPTION, "false");
  await Promise.all([new Promise((r) => worker.close(r)), new Promise((r) => site.close(r))]);
});
beforeEach(() => {
  seen = [];
  siteHits = 0;
});

describe("fetching a typed URL", () => {
  it("goes straight to the address when no worker is set: a console URL on loopback with private addresses allowed", async () => {
    applyOption("WorkerUrl", "");
    expect(workerEnabled()).toBe(false);
    const res = await fetchConsoleUrl(`${siteUrl}/a.png`);
    expect(await res.text()).toBe("site /a.png");
    expect(siteHits).toBe(1);
    expect(seen).toEqual([]);
  });

  it("a user's URL never reaches loopback, by literal or by name, with private addresses allowed", async () => {
    applyOption("WorkerUrl", "");
    const port = new URL(siteUrl).port;
    for (const url of [`${siteUrl}/a.png`, `http://localhost:${port}/a.png`, `http://[::ffff:127.0.0.1]:${port}/a.png`]) {
      await expect(fetchUserUrl(url), url).rejects.toMatchObject({ code: "E_OUTBOUND_REFUSED", reason: "loopback", scope: "user" });
    }
    expect(siteHits).toBe(0);
  });

  it("with a worker, a user's loopback literal is refused before the worker is asked; a console one is handed to it", async () => {
    applyOption("WorkerUrl", workerUrl);
    await expect(fetchUserUrl(`${siteUrl}/a.png`)).rejects.toMatchObject({ reason: "loopback" });
    expect(seen).toEqual([]);
    await fetchConsoleUrl(`${siteUrl}/a.png`);
    expect(seen.map((s) => s.url)).toEqual([`${siteUrl}/a.png`]);
    expect(siteHits).toBe(0);
  });

  it("goes through the worker, with its key, when WorkerUrl is set; the site is never contacted", async () => {
    applyOption("WorkerUrl", workerUrl);
    applyOption("WorkerValidKey", "worker-secret");
    expect(workerEnabled()).toBe(true);
    const res = await fetchUserUrl("https://images.example.com/cat.png", { headers: { accept: "image/*" } });
    expect(await res.text()).toBe("worker fetched https://images.example.com/cat.png with GET");
    expect(seen).toEqual([
      { url: "https://images.example.com/cat.png", key: "worker-secret", method: "GET", headers: { accept: "image/*" }, follow_redirects: false },
    ]);
    expect(siteHits).toBe(0);
  });

  it("follows a redirect the worker hands back through the worker again", async () => {
    applyOption("WorkerUrl", workerUrl + "/");
    const res = await fetchUserUrl("https://images.example.com/moved");
    expect(await res.text()).toBe("worker fetched https://images.example.com/landing with GET");
    expect(seen.map((s) => s.url)).toEqual(["https://images.example.com/moved", "https://images.example.com/landing"]);
  });

  it("with maxRedirects 0, answers the redirect the worker hands back as it came", async () => {
    applyOption("WorkerUrl", workerUrl);
    const res = await fetchUserUrl("https://images.example.com/moved", { maxRedirects: 0 });
    expect(res.status).toBe(302);
    expect(seen.map((s) => s.url)).toEqual(["https://images.example.com/moved"]);
  });

  it("a webhook goes through the worker: POST, JSON body, the Bearer secret (docs/notifications.md)", async () => {
    applyOption("WorkerUrl", workerUrl);
    applyOption("WorkerValidKey", "worker-secret");
    const body = { type: "test" as const, title: "t", content: "c", values: { a: 1 }, timestamp: 5 };
    expect(await sendWebhook("https://hooks.example.com/notify", "hook-secret", body)).toEqual({ ok: true, status: 200 });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ url: "https://hooks.example.com/notify", method: "POST", follow_redirects: false });
    expect(seen[0].headers).toMatchObject({ authorization: "Bearer hook-secret", "content-type": "application/json" });
    expect(JSON.parse(seen[0].body!)).toEqual(body);
    // a redirect is a failed delivery, never followed with the secret
    expect(await sendWebhook("https://hooks.example.com/moved", "hook-secret", body, 1)).toEqual({ ok: false, status: 302 });
    expect(seen).toHaveLength(2);
    expect(siteHits).toBe(0);
  });

  it("refuses a URL that is not http(s) before asking the worker", async () => {
    applyOption("WorkerUrl", workerUrl);
    await expect(fetchUserUrl("file:///etc/passwd")).rejects.toMatchObject({ code: "E_OUTBOUND_REFUSED" });
    expect(seen).toEqual([]);
  });
});
