// WorkerUrl / WorkerValidKey end to end (docs/outbound.md, "Worker"): the server's fetches of
// URLs typed into the console (the update check, the OIDC Well-Known discovery, the preset
// ratio source) go through the worker when WorkerUrl is set, with WorkerValidKey, and straight
// to the address when it is not. The worker (speaking new-api's protocol: POST {url, key,
// method, headers, body, follow_redirects}) and the typed site are local stand-ins on 127.0.0.1.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ApiClient } from "../support/client";
import { setOptions, setupRoot } from "../support/accounts";
import { startServer, type TestServer } from "../support/server";

type Seen = { url: string; key: string; method: string; headers: Record<string, string>; follow_redirects: boolean };

let server: TestServer;
let root: ApiClient;
let worker: http.Server;
let site: http.Server;
let workerUrl = "";
let siteUrl = "";
let seen: Seen[] = [];
let siteHits: string[] = [];

const WORKER_KEY = "worker-valid-key-0123456789";
// A name nothing resolves: only the worker can have answered for it.
const TYPED = "https://typed.example.invalid";

// The documents a source answers, by path; `who` tells which one answered.
function documentFor(path: string, who: string): unknown {
  if (path.endsWith("/release")) return { tag_name: who === "worker" ? "v777.0.0" : "v0.0.1", body: `from the ${who}` };
  if (path.endsWith("/.well-known/openid-configuration")) {
    return {
      authorization_endpoint: `https://${who}.example.com/auth`,
      token_endpoint: `https://${who}.example.com/token`,
      userinfo_endpoint: `https://${who}.example.com/userinfo`,
    };
  }
  if (path.endsWith("/prompt_ratio.json")) return { [`${who}-model`]: 2 };
  if (path.endsWith("/completion_ratio.json")) return { [`${who}-model`]: 3 };
  return null;
}

function answer(res: http.ServerResponse, doc: unknown) {
  if (doc === null) {
    res.writeHead(404);
    return res.end();
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(doc));
}

const listen = async (s: http.Server) => {
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  site = http.createServer((req, res) => {
    siteHits.push(req.url ?? "");
    answer(res, documentFor(req.url ?? "", "site"));
  });
  worker = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const payload = JSON.parse(text) as Seen;
      seen.push(payload);
      // a worker answers only the gateway that holds its key
      if (req.method !== "POST" || payload.key !== WORKER_KEY) {
        res.writeHead(403);
        return res.end();
      }
      answer(res, documentFor(new URL(payload.url).pathname, "worker"));
    });
  });
  siteUrl = await listen(site);
  workerUrl = await listen(worker);
  server = await startServer();
  root = await setupRoot(server); // fetch_setting.allow_private_ip on: both stand-ins are on loopback
});

afterAll(async () => {
  await server?.stop();
  await Promise.all([new Promise((r) => worker?.close(r)), new Promise((r) => site?.close(r))]);
});

beforeEach(() => {
  seen = [];
  siteHits = [];
});

type Update = { tag_name: string; body: string; update_available: boolean };

describe("URLs typed into the console", () => {
  it("are fetched directly when WorkerUrl is empty", async () => {
    await setOptions(root, { UpdateCheckUrl: `${siteUrl}/release` });
    const update = await root.post<Update>("/api/option/update_check");
    expect(update.success, update.message).toBe(true);
    expect(update.data).toMatchObject({ tag_name: "v0.0.1", body: "from the site", update_available: false });
    expect(siteHits).toEqual(["/release"]);
    expect(seen).toEqual([]);
  });

  it("go through the worker, with WorkerValidKey, when WorkerUrl is set; the typed address is never contacted", async () => {
    await setOptions(root, { WorkerUrl: `${workerUrl}/`, WorkerValidKey: WORKER_KEY });
    // the typed site is reachable, yet the worker fetches it
    const update = await root.post<Update>("/api/option/update_check");
    expect(update.success, update.message).toBe(true);
    expect(update.data).toMatchObject({ tag_name: "v777.0.0", body: "from the worker", update_available: true });
    expect(seen).toEqual([{ url: `${siteUrl}/release`, key: WORKER_KEY, method: "GET", headers: { accept: "application/json" }, follow_redirects: false }]);
    expect(siteHits).toEqual([]);

    // a name the gateway could not resolve itself
    seen = [];
    await setOptions(root, { UpdateCheckUrl: `${TYPED}/release` });
    expect((await root.post<Update>("/api/option/update_check")).data.tag_name).toBe("v777.0.0");
    expect(seen.map((s) => [s.url, s.key])).toEqual([[`${TYPED}/release`, WORKER_KEY]]);
  });

  it("the OIDC Well-Known discovery and the preset ratio source go through the worker too", async () => {
    const oidc = await root.post<Record<string, string>>("/api/option/oidc_discovery", { well_known: `${TYPED}/.well-known/openid-configuration` });
    expect(oidc.success, oidc.message).toBe(true);
    expect(oidc.data).toEqual({
      authorization_endpoint: "https://worker.example.com/auth",
      token_endpoint: "https://worker.example.com/token",
      userinfo_endpoint: "https://worker.example.com/userinfo",
    });

    await setOptions(root, { PresetRatioSourceUrl: `${siteUrl}/ratios`, PresetRatioSourceKind: "flexible" });
    const fetched = await root.post<{ source: string; added: number }>("/api/option/preset_ratio/fetch");
    expect(fetched.success, fetched.message).toBe(true);
    expect(fetched.data).toMatchObject({ source: "flexible", added: 1 });
    const ratios = await root.get<{ key: string; value: string }[]>("/api/option/");
    const modelRatio = JSON.parse(ratios.data.find((o) => o.key === "ModelRatio")!.value) as Record<string, number>;
    expect(modelRatio["worker-model"]).toBe(2);
    expect(modelRatio).not.toHaveProperty("site-model");

    expect(seen.map((s) => s.url).sort()).toEqual(
      [`${TYPED}/.well-known/openid-configuration`, `${siteUrl}/ratios/completion_ratio.json`, `${siteUrl}/ratios/prompt_ratio.json`].sort(),
    );
    expect(seen.every((s) => s.key === WORKER_KEY)).toBe(true);
    expect(siteHits).toEqual([]);
  });

  it("a worker that refuses the key is a failed fetch", async () => {
    await setOptions(root, { WorkerValidKey: "another-key-0123456789" });
    expect((await root.post("/api/option/update_check")).message).toBe("Check for updates failed");
    expect(seen.map((s) => s.key)).toEqual(["another-key-0123456789"]);
    await setOptions(root, { WorkerValidKey: WORKER_KEY });
  });

  it("the worker's own address is under the outbound policy", async () => {
    // loopback refused: the worker on 127.0.0.1 is never asked, and nothing else is contacted
    await setOptions(root, { "fetch_setting.allow_private_ip": "false" });
    expect((await root.post("/api/option/update_check")).message).toBe(
      "Check for updates failed: The upstream address is a loopback address; it is allowed only when the root user turns on fetch_setting.allow_private_ip",
    );
    expect(seen).toEqual([]);
    expect(siteHits).toEqual([]);
    await setOptions(root, { "fetch_setting.allow_private_ip": "true" });
    expect((await root.post<Update>("/api/option/update_check")).data.tag_name).toBe("v777.0.0");
  });

  it("are fetched directly again once WorkerUrl is cleared", async () => {
    await setOptions(root, { WorkerUrl: "", UpdateCheckUrl: `${siteUrl}/release` });
    expect((await root.post<Update>("/api/option/update_check")).data.tag_name).toBe("v0.0.1");
    expect(siteHits).toEqual(["/release"]);
    expect(seen).toEqual([]);
  });
});
