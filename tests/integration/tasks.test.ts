// The task relay end to end (docs/tasks.md): the real server against a real local upstream
// speaking the Midjourney-proxy, Suno and OpenAI video APIs (tests/support/mock-task-upstream.ts).
// A submitted task is charged at its action's ModelPrice, polled to SUCCESS and listed; a task
// that fails upstream (or is refused, or times out) is refunded exactly once; nobody reads
// another user's task; the Mj* options and DrawingEnabled / TaskEnabled do what they say.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { MJ_KEY, MP4, PNG, startMockTaskUpstream, SUNO_KEY, VIDEO_KEY, type MockTaskUpstream } from "../support/mock-task-upstream";
import { query } from "../support/seed";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let up: MockTaskUpstream;
let root: ApiClient;
let alice: { id: number; client: ApiClient };
let bob: { id: number; client: ApiClient };
let aliceKey: string;
let bobKey: string;
let mjChannel: number;
let sunoChannel: number;

// ModelPrice in USD per task; 500000 units = 1 USD
const PRICES = {
  mj_imagine: 0.1,
  mj_upscale: 0.05,
  mj_describe: 0.02,
  mj_shorten: 0.01,
  mj_modal: 0.08,
  mj_inpaint: 0.03,
  suno_music: 0.2,
  suno_lyrics: 0.01,
  "sora-2": 0.4,
};
const units = (usd: number) => Math.round(usd * 500_000);
const TIMEOUT_S = 12;

async function addChannel(body: Record<string, unknown>): Promise<number> {
  const r = await root.post<unknown>("/api/channel/", body);
  expect(r.success, r.message).toBe(true);
  const list = await root.get<{ items: { id: number; name: string }[] }>("/api/channel/?p=1&page_size=100");
  return list.data.items.find((c) => c.name === body.name)!.id;
}

async function quotaOf(id: number): Promise<number> {
  return Number((await query(server, 'SELECT "quota" FROM "users" WHERE "id" = $1', [id]))[0].quota);
}
async function ledgerSum(id: number): Promise<number> {
  const rows = await query(server, 'SELECT "delta" FROM "quota_ledger" WHERE "user_id" = $1', [id]);
  return rows.reduce((s, r) => s + Number(r.delta), 0);
}
async function ledgerKinds(ref: string): Promise<string[]> {
  const rows = await query(server, 'SELECT "kind", "delta" FROM "quota_ledger" WHERE "ref" = $1 ORDER BY "id"', [ref]);
  return rows.map((r) => `${r.kind}:${r.delta}`);
}

const mj = (key: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: Object.assign({ "mj-api-secret": key, "content-type": "application/json", "accept-language": "en" }, headers),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const bearer = (key: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "accept-language": "en" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const METRICS_TOKEN = "tasks-metrics-token";
// The relay counter's samples whose labels include `labels`, summed (docs/operations.md, "Relay metrics").
async function relayCount(labels: Record<string, string>): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  let total = 0;
  for (const m of text.matchAll(/^gateway_relay_requests_total\{([^}]*)\} (\S+)$/gm)) {
    const have = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total += Number(m[2]);
  }
  return total;
}

async function until<T>(what: string, get: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const mjTask = async (key: string, id: string) => (await (await mj(key, `/mj/task/${id}/fetch`)).json()) as Record<string, any>;
const rowOf = async (table: "image_tasks" | "creative_tasks", col: "mj_id" | "task_id", id: string) =>
  (await query(server, `SELECT * FROM "${table}" WHERE "${col}" = $1`, [id]))[0] as Record<string, any>;

beforeAll(async () => {
  up = await startMockTaskUpstream();
  server = await startServer({ env: { TASK_POLL_INTERVAL_SECONDS: "1", TASK_TIMEOUT_SECONDS: String(TIMEOUT_S), METRICS_TOKEN } });
  root = await setupRoot(server);
  await setOptions(root, {
    ModelPrice: JSON.stringify(PRICES),
    DrawingEnabled: "true",
    TaskEnabled: "true",
    ServerAddress: server.url,
    MjForwardUrlEnabled: "true",
    MjModeClearEnabled: "true",
    MjActionCheckSuccessEnabled: "true",
  });
  mjChannel = await addChannel({
    name: "mj",
    type: 2,
    key: MJ_KEY,
    base_url: up.url,
    models: "mj_imagine,mj_upscale,mj_describe,mj_blend,mj_shorten,mj_modal,mj_inpaint",
    group: "default",
  });
  sunoChannel = await addChannel({ name: "suno", type: 36, key: SUNO_KEY, base_url: up.url, models: "suno_music,suno_lyrics", group: "default" });
  await addChannel({ name: "video", type: 1, key: VIDEO_KEY, base_url: up.url, models: "sora-2", group: "default" });
  alice = await makeUser(server, root, "alice");
  bob = await makeUser(server, root, "bob");
  for (const u of [alice, bob]) expect((await root.put("/api/user/", { id: u.id, quota: 5_000_000 })).success).toBe(true);
  aliceKey = (await alice.client.post<{ key: string }[]>("/api/token/", { name: "a", unlimited_quota: true })).data[0].key;
  bobKey = (await bob.client.post<{ key: string }[]>("/api/token/", { name: "b", remain_quota: 1_000_000 })).data[0].key;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await up?.close();
});

describe("Midjourney", () => {
  let imagineId = "";

  it("charges an imagine at mj_imagine's price, polls it to SUCCESS, and serves its image through the gateway", async () => {
    const before = await quotaOf(alice.id);
    const r = await mj(aliceKey, "/mj/submit/imagine", { prompt: "a red fox --fast in snow", notifyHook: "http://127.0.0.1:1/steal" });
    const body = (await r.json()) as { code: number; result: string };
    expect(r.status).toBe(200);
    expect(body.code).toBe(1);
    imagineId = body.result;
    expect(imagineId).toMatch(/^\d{16,}$/);
    expect(await quotaOf(alice.id)).toBe(before - units(PRICES.mj_imagine));
    // MjModeClearEnabled took --fast out; the client's notifyHook never reaches the upstream
    const sent = up.requests.find((q) => q.url === "/mj/submit/imagine")!;
    expect(sent.json.prompt).toBe("a red fox in snow");
    expect(sent.json.notifyHook).toBeUndefined();
    expect(sent.headers["mj-api-secret"]).toBe(MJ_KEY);

    const done = await until(
      "imagine",
      () => mjTask(aliceKey, imagineId),
      (t) => t.status === "SUCCESS",
    );
    expect(done.id).toBe(imagineId);
    expect(done.progress).toBe("100%");
    expect(done.imageUrl).toBe(`${server.url}/mj/image/${imagineId}`);
    const img = await fetch(done.imageUrl);
    expect(img.status).toBe(200);
    expect(img.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await img.arrayBuffer())).toEqual(PNG);
    // a malformed escape in the path is a 400, not a crash
    expect((await fetch(`${server.url}/mj/image/%E0%A4%A`)).status).toBe(400);
    // kept: no refund, counted as used
    expect(await quotaOf(alice.id)).toBe(before - units(PRICES.mj_imagine));
    const row = await rowOf("image_tasks", "mj_id", imagineId);
    expect(row.billing_state).toBe("settled");
    expect(await ledgerKinds(row.billing_ref)).toEqual([`relay_reserve:${-units(PRICES.mj_imagine)}`]);
    expect(await ledgerSum(alice.id)).toBe(await quotaOf(alice.id));

    // the console lists it: the user's own view without the channel, the admin's with it
    const self = await alice.client.get<{ items: Record<string, any>[]; total: number }>(`/api/mj/self/?mj_id=${imagineId}`);
    expect(self.data.total).toBe(1);
    expect(self.data.items[0]).toMatchObject({ mj_id: imagineId, status: "SUCCESS", action: "IMAGINE", channel_id: 0 });
    // the console shows the forwarded address too (MjForwardUrlEnabled), and the upstream's when off
    expect(self.data.items[0].image_url).toBe(`${server.url}/mj/image/${imagineId}`);
    await setOptions(root, { MjForwardUrlEnabled: "false" });
    expect((await mjTask(aliceKey, imagineId)).imageUrl).toMatch(new RegExp(`^${up.url}/`));
    expect((await alice.client.get<{ items: Record<string, any>[] }>(`/api/mj/self/?mj_id=${imagineId}`)).data.items[0].image_url).toMatch(
      new RegExp(`^${up.url}/`),
    );
    expect((await fetch(`${server.url}/mj/image/${imagineId}`)).status).toBe(404);
    await setOptions(root, { MjForwardUrlEnabled: "true" });
    const all = await root.get<{ items: Record<string, any>[] }>(`/api/mj/?channel_id=${mjChannel}`);
    expect(all.data.items.find((t) => t.mj_id === imagineId)?.channel_id).toBe(mjChannel);
    expect(JSON.stringify(all.data)).not.toContain(MJ_KEY);
  });

  it("lists by condition, and routes an action to the task's channel with the upstream's id", async () => {
    const list = (await (await mj(aliceKey, "/mj/task/list-by-condition", { ids: [imagineId, "nope"] })).json()) as { id: string }[];
    expect(list.map((t) => t.id)).toEqual([imagineId]);
    const r = (await (await mj(aliceKey, "/mj/submit/change", { action: "UPSCALE", index: 1, taskId: imagineId })).json()) as { code: number; result: string };
    expect(r.code).toBe(1);
    const upstreamId = (await rowOf("image_tasks", "mj_id", imagineId)).upstream_id;
    expect(up.requests.filter((q) => q.url === "/mj/submit/change").at(-1)!.json.taskId).toBe(upstreamId);
    const row = await rowOf("image_tasks", "mj_id", r.result);
    expect(row).toMatchObject({ action: "UPSCALE", model_name: "mj_upscale", channel_id: mjChannel });
    expect(Number(row.quota)).toBe(units(PRICES.mj_upscale));
  });

  it("submits describe, blend, shorten and a button's action, each at its own price, polled to SUCCESS", async () => {
    // mj_blend is left unpriced elsewhere (the token-ratio test below)
    await setOptions(root, { ModelPrice: JSON.stringify(Object.assign({}, PRICES, { mj_blend: 0.03 })) });
    const img = `data:image/png;base64,${PNG.toString("base64")}`;
    const imagineUpstream = (await rowOf("image_tasks", "mj_id", imagineId)).upstream_id;
    const cases = [
      { path: "/mj/submit/describe", body: { base64: img }, action: "DESCRIBE", model: "mj_describe", price: PRICES.mj_describe },
      { path: "/mj/submit/blend", body: { base64Array: [img, img] }, action: "BLEND", model: "mj_blend", price: 0.03 },
      { path: "/mj/submit/shorten", body: { prompt: "a fox, red, in snow, very detailed" }, action: "SHORTEN", model: "mj_shorten", price: PRICES.mj_shorten },
      {
        path: "/mj/submit/action",
        body: { customId: `MJ::JOB::upsample::2::${imagineUpstream}`, taskId: imagineId },
        action: "UPSCALE",
        model: "mj_upscale",
        price: PRICES.mj_upscale,
      },
    ];
    for (const c of cases) {
      const r = (await (await mj(aliceKey, c.path, c.body)).json()) as { code: number; result: string };
      expect(r.code, c.path).toBe(1);
      const sent = up.requests.filter((q) => q.url === c.path).at(-1)!;
      expect(sent.headers["mj-api-secret"]).toBe(MJ_KEY);
      const row = await rowOf("image_tasks", "mj_id", r.result);
      expect(row, c.path).toMatchObject({ action: c.action, model_name: c.model, channel_id: mjChannel });
      expect(await ledgerKinds(row.billing_ref), c.path).toEqual([`relay_reserve:${-units(c.price)}`]);
      await until(
        c.action,
        () => mjTask(aliceKey, r.result),
        (t) => t.status === "SUCCESS",
      );
      expect((await rowOf("image_tasks", "mj_id", r.result)).billing_state).toBe("settled");
      expect(await ledgerKinds(row.billing_ref), c.path).toEqual([`relay_reserve:${-units(c.price)}`]);
    }
    // the button's action went upstream with the upstream's own id of the task
    expect(up.requests.filter((q) => q.url === "/mj/submit/action").at(-1)!.json.taskId).toBe(imagineUpstream);
    await setOptions(root, { ModelPrice: JSON.stringify(PRICES) });
  });

  it("charges the modal, not the Inpaint step that opens it, and lets the modal past MjActionCheckSuccessEnabled", async () => {
    const imagineUpstream = (await rowOf("image_tasks", "mj_id", imagineId)).upstream_id;
    const before = await quotaOf(alice.id);
    const a = (await (await mj(aliceKey, "/mj/submit/action", { customId: `MJ::Inpaint::1::${imagineUpstream}::SOLO`, taskId: imagineId })).json()) as {
      code: number;
      result: string;
    };
    // 21 with status MODAL: the client is to send the modal; the opening step costs nothing
    expect(a.code).toBe(21);
    expect(await quotaOf(alice.id)).toBe(before);
    const opener = await rowOf("image_tasks", "mj_id", a.result);
    expect(opener).toMatchObject({ action: "INPAINT", status: "MODAL", billing_state: "none" });
    expect(Number(opener.quota)).toBe(0);
    expect(await ledgerKinds(opener.billing_ref)).toEqual([]);

    // the waiting task is not SUCCESS, and the modal goes through all the same, charged
    const m = (await (await mj(aliceKey, "/mj/submit/modal", { taskId: a.result, prompt: "a blue hat", maskBase64: "AA==" })).json()) as {
      code: number;
      result: string;
    };
    expect(m.code).toBe(1);
    expect(up.requests.filter((q) => q.url === "/mj/submit/modal").at(-1)!.json.taskId).toBe(opener.upstream_id);
    const row = await rowOf("image_tasks", "mj_id", m.result);
    expect(row).toMatchObject({ action: "MODAL", model_name: "mj_modal", upstream_id: opener.upstream_id, channel_id: mjChannel });
    expect(await quotaOf(alice.id)).toBe(before - units(PRICES.mj_modal));
    await until(
      "modal",
      () => mjTask(aliceKey, m.result),
      (t) => t.status === "SUCCESS",
    );
    expect((await rowOf("image_tasks", "mj_id", m.result)).billing_state).toBe("settled");
    expect(await ledgerKinds(row.billing_ref)).toEqual([`relay_reserve:${-units(PRICES.mj_modal)}`]);
    // the opener is closed (never polled, so never failed at the time limit), and still free
    expect(await rowOf("image_tasks", "mj_id", a.result)).toMatchObject({ status: "MODAL", billing_state: "none", fail_reason: "" });
    expect(await quotaOf(alice.id)).toBe(before - units(PRICES.mj_modal));
  });

  it("answers a Bearer key on /mj/* as it does mj-api-secret", async () => {
    const before = await quotaOf(alice.id);
    const r = await bearer(aliceKey, "/mj/submit/imagine", { prompt: "a key in the Authorization header" });
    expect(r.status).toBe(200);
    const j = (await r.json()) as { code: number; result: string };
    expect(j.code).toBe(1);
    expect(await quotaOf(alice.id)).toBe(before - units(PRICES.mj_imagine));
    // upstream, the channel's key goes in mj-api-secret; the client's key goes nowhere
    const sent = up.requests.filter((q) => q.url === "/mj/submit/imagine").at(-1)!;
    expect(sent.headers["mj-api-secret"]).toBe(MJ_KEY);
    expect(JSON.stringify(sent.headers)).not.toContain(aliceKey);
    const f = (await (await bearer(aliceKey, `/mj/task/${j.result}/fetch`)).json()) as { id: string };
    expect(f.id).toBe(j.result);
    const list = (await (await bearer(aliceKey, "/mj/task/list-by-condition", { ids: [j.result] })).json()) as { id: string }[];
    expect(list.map((t) => t.id)).toEqual([j.result]);
    expect((await bearer("sk-nope", "/mj/submit/imagine", { prompt: "x" })).status).toBe(401);
  });

  it("leaves no reservation behind when the task's row cannot be written", async () => {
    // a trigger refuses the row of one prompt: the reservation made with it must go with it
    if (server.dbKind === "sqlite") {
      await query(
        server,
        `CREATE TRIGGER "refuse_task_row" BEFORE INSERT ON "image_tasks" WHEN NEW."prompt" LIKE '%unwritable%' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
      );
    } else {
      await query(
        server,
        `CREATE FUNCTION "refuse_task_row"() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN IF NEW."prompt" LIKE '%unwritable%' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $f$`,
      );
      await query(server, `CREATE TRIGGER "refuse_task_row" BEFORE INSERT ON "image_tasks" FOR EACH ROW EXECUTE FUNCTION "refuse_task_row"()`);
    }
    try {
      const before = await quotaOf(alice.id);
      const r = await mj(aliceKey, "/mj/submit/imagine", { prompt: "an unwritable task" });
      expect(r.status).toBeGreaterThanOrEqual(500);
      expect(await quotaOf(alice.id)).toBe(before);
      expect(await ledgerSum(alice.id)).toBe(before);
      expect(up.requests.some((q) => q.json?.prompt === "an unwritable task")).toBe(false);
    } finally {
      await query(server, 'DROP TRIGGER "refuse_task_row"' + (server.dbKind === "sqlite" ? "" : ' ON "image_tasks"'));
      if (server.dbKind !== "sqlite") await query(server, 'DROP FUNCTION "refuse_task_row"()');
    }
  });

  it("refuses an action on an unfinished task (MjActionCheckSuccessEnabled) and reserves nothing", async () => {
    // acted on at once, before its first poll (it succeeds later and keeps its charge)
    const r = (await (await mj(aliceKey, "/mj/submit/imagine", { prompt: "soon done" })).json()) as { result: string };
    const before = await quotaOf(alice.id);
    const a = await mj(aliceKey, "/mj/submit/simple-change", { content: `${r.result} U2` });
    expect(a.status).toBe(400);
    expect(((await a.json()) as { description: string }).description).toMatch(/not succeeded/);
    expect(await quotaOf(alice.id)).toBe(before);
  });

  it("gives the reservation back at once when the upstream refuses the submit", async () => {
    const before = await quotaOf(alice.id);
    const r = (await (await mj(aliceKey, "/mj/submit/imagine", { prompt: "please refuse this" })).json()) as {
      code: number;
      description: string;
      result: unknown;
    };
    expect(r.code).toBe(24);
    expect(r.description).toMatch(/banned word/);
    expect(r.result).toBeNull();
    expect(await quotaOf(alice.id)).toBe(before);
    expect(await ledgerSum(alice.id)).toBe(before);
  });

  it("refunds a failed task exactly once when signed callbacks and the poller race to close it", async () => {
    await setOptions(root, { MjNotifyEnabled: "true" });
    const before = await quotaOf(alice.id);
    const r = (await (await mj(aliceKey, "/mj/submit/imagine", { prompt: "this will fail" })).json()) as { result: string };
    expect(await quotaOf(alice.id)).toBe(before - units(PRICES.mj_imagine));
    const hook = up.requests.filter((q) => q.url === "/mj/submit/imagine").at(-1)!.json.notifyHook as string;
    const upstreamId = (await rowOf("image_tasks", "mj_id", r.result)).upstream_id;
    const failed = Object.assign(up.mjView(upstreamId), { status: "FAILURE", progress: "50%", failReason: "banned by the mock" });
    const late = Object.assign(up.mjView(upstreamId), { status: "IN_PROGRESS", progress: "10%", failReason: "" });
    const post = (body: unknown) => fetch(hook, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    // eight callbacks at once, while the poller (every second) reads the same end upstream
    const waitForPoll = new Promise((res) => setTimeout(res, 1200));
    await Promise.all([...Array.from({ length: 8 }, () => post(failed)), waitForPoll, ...Array.from({ length: 4 }, () => post(failed))]);
    await until(
      "refund",
      () => quotaOf(alice.id),
      (q) => q === before,
    );
    // a late non-final callback and later poll rounds change nothing
    expect((await post(late)).status).toBe(200);
    await new Promise((res) => setTimeout(res, 2500));
    expect(await quotaOf(alice.id)).toBe(before);
    const row = await rowOf("image_tasks", "mj_id", r.result);
    expect(row.billing_state).toBe("refunded");
    expect(row.status).toBe("FAILURE");
    expect(row.fail_reason).toBe("banned by the mock");
    expect(row.progress).toBe("50%");
    expect(await ledgerKinds(row.billing_ref)).toEqual([`relay_reserve:${-units(PRICES.mj_imagine)}`, `relay_refund:${units(PRICES.mj_imagine)}`]);
    expect(await ledgerSum(alice.id)).toBe(before);
    // the refund's log row names what happened in the reader's language (a key and parameters)
    const refundRows = await until(
      "refund log row",
      async () => (await root.get<{ items: Array<{ other: string }> }>("/api/log/?p=1&page_size=50&type=4")).data.items,
      (items) => items.some((l) => l.other.includes("banned by the mock")),
    );
    const refundRow = refundRows.find((l) => l.other.includes("banned by the mock"))!;
    expect(JSON.parse(refundRow.other).message).toEqual({ key: "task_refund", params: { quota: units(PRICES.mj_imagine), reason: "banned by the mock" } });
    await setOptions(root, { MjNotifyEnabled: "false" });
  });

  it("passes the client's accountFilter upstream only with MjAccountFilterEnabled", async () => {
    const sent = () => up.requests.filter((q) => q.url === "/mj/submit/imagine").at(-1)!.json;
    const filter = { channelId: "c1", instanceId: "i1" };
    expect((await mj(aliceKey, "/mj/submit/imagine", { prompt: "filter off", accountFilter: filter })).status).toBe(200);
    expect(sent().accountFilter).toBeUndefined();
    await setOptions(root, { MjAccountFilterEnabled: "true" });
    expect((await mj(aliceKey, "/mj/submit/imagine", { prompt: "filter on", accountFilter: filter })).status).toBe(200);
    expect(sent().accountFilter).toEqual(filter);
    await setOptions(root, { MjAccountFilterEnabled: "false" });
  });

  it("applies the relay's gates: the word filter on prompts and browser extensions, before reserving anything", async () => {
    const before = await quotaOf(alice.id);
    await setOptions(root, { CheckSensitiveEnabled: "true", CheckSensitiveOnPromptEnabled: "true", SensitiveWords: "forbiddenword" });
    const w = await mj(aliceKey, "/mj/submit/imagine", { prompt: "a FORBIDDENWORD cat" });
    expect(w.status).toBe(400);
    const s = await bearer(aliceKey, "/suno/submit/lyrics", { prompt: "sing forbiddenword" });
    expect(s.status).toBe(400);
    await setOptions(root, { CheckSensitiveEnabled: "false", SensitiveWords: "" });
    await setOptions(root, { "global.block_browser_extension_enabled": "true" });
    const e = await mj(aliceKey, "/mj/submit/imagine", { prompt: "from an extension" }, { origin: "chrome-extension://abcdef" });
    expect(e.status).toBe(403);
    await setOptions(root, { "global.block_browser_extension_enabled": "false" });
    expect(await quotaOf(alice.id)).toBe(before);
  });

  it("refuses a task model priced only by a token ratio instead of running it free", async () => {
    await setOptions(root, { ModelRatio: JSON.stringify({ mj_blend: 2 }) });
    const before = await quotaOf(alice.id);
    const r = await mj(aliceKey, "/mj/submit/blend", { base64Array: ["data:image/png;base64,AA==", "data:image/png;base64,AA=="] });
    const j = (await r.json()) as { code: number; description: string; result: unknown };
    expect(j.result ?? null).toBeNull();
    expect(j.description).toMatch(/price/i);
    expect(await quotaOf(alice.id)).toBe(before);
    await setOptions(root, { ModelRatio: "{}" });
  });

  it("never shows a user another user's task", async () => {
    const f = await mj(bobKey, `/mj/task/${imagineId}/fetch`);
    expect(f.status).toBe(404);
    expect(JSON.stringify(await f.json())).not.toContain("red fox");
    expect(await (await mj(bobKey, "/mj/task/list-by-condition", { ids: [imagineId] })).json()).toEqual([]);
    const act = await mj(bobKey, "/mj/submit/change", { action: "UPSCALE", index: 1, taskId: imagineId });
    expect(act.status).toBe(404);
    expect((await bob.client.get<{ total: number }>(`/api/mj/self/?mj_id=${imagineId}`)).data.total).toBe(0);
    // the admin listing is for admins only
    expect((await bob.client.get("/api/mj/")).success).toBe(false);
    expect((await bob.client.get("/api/task/")).success).toBe(false);
  });

  it("accepts the upstream's callback at the signed address only (MjNotifyEnabled)", async () => {
    await setOptions(root, { MjNotifyEnabled: "true" });
    const r = (await (await mj(aliceKey, "/mj/submit/imagine", { prompt: "forever by callback" })).json()) as { result: string };
    const hook = up.requests.filter((q) => q.url === "/mj/submit/imagine").at(-1)!.json.notifyHook as string;
    expect(hook).toMatch(new RegExp(`^${server.url}/mj/notify/${r.result}/[0-9a-f]{32}$`));
    const upstreamId = (await rowOf("image_tasks", "mj_id", r.result)).upstream_id;
    const payload = Object.assign(up.mjView(upstreamId), { status: "SUCCESS", progress: "100%", imageUrl: `${up.url}/img/x.png` });
    const forged = await fetch(hook.replace(/[0-9a-f]{32}$/, "0".repeat(32)), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    expect(forged.status).toBe(404);
    expect((await mjTask(aliceKey, r.result)).status).not.toBe("SUCCESS");
    const ok = await fetch(hook, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
    expect(ok.status).toBe(200);
    expect((await mjTask(aliceKey, r.result)).status).toBe("SUCCESS");
    expect((await rowOf("image_tasks", "mj_id", r.result)).billing_state).toBe("settled");
    await setOptions(root, { MjNotifyEnabled: "false" });
  });

  it("fails and refunds a task unfinished past the time limit", async () => {
    const before = await quotaOf(alice.id);
    const r = (await (await mj(aliceKey, "/mj/submit/imagine", { prompt: "forever and ever" })).json()) as { result: string };
    expect(await quotaOf(alice.id)).toBe(before - units(PRICES.mj_imagine));
    const t = await until(
      "timeout",
      () => mjTask(aliceKey, r.result),
      (x) => x.status === "FAILURE",
      (TIMEOUT_S + 10) * 1000,
    );
    expect(t.failReason).toBe("task timed out");
    await until(
      "refund",
      () => quotaOf(alice.id),
      (q) => q === before,
    );
  }, 40_000);

  it("is closed while DrawingEnabled is off", async () => {
    await setOptions(root, { DrawingEnabled: "false" });
    const r = await mj(aliceKey, "/mj/submit/imagine", { prompt: "x" });
    expect(r.status).toBe(403);
    expect(((await r.json()) as { description: string }).description).toBe(`Drawing is disabled (request id: ${r.headers.get("x-request-id")})`);
    await setOptions(root, { DrawingEnabled: "true" });
  });

  it("refuses a bad key and a bad request before reserving anything", async () => {
    expect((await mj("sk-nope", "/mj/submit/imagine", { prompt: "x" })).status).toBe(401);
    const before = await quotaOf(alice.id);
    const r = await mj(aliceKey, "/mj/submit/imagine", { prompt: "  " });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { code: number }).code).toBe(4);
    expect(await quotaOf(alice.id)).toBe(before);
  });
});

describe("Suno", () => {
  it("charges a song, polls it to SUCCESS and lists it in the task log", async () => {
    const before = await quotaOf(bob.id);
    const r = (await (await bearer(bobKey, "/suno/submit/music", { prompt: "a song about tests", mv: "chirp-v3-5" })).json()) as { code: string; data: string };
    expect(r.code).toBe("success");
    expect(await quotaOf(bob.id)).toBe(before - units(PRICES.suno_music));
    const id = r.data;
    const done = await until(
      "song",
      async () => ((await (await bearer(bobKey, `/suno/fetch/${id}`)).json()) as { data: Record<string, any> }).data,
      (t) => t.status === "SUCCESS",
    );
    expect(done).toMatchObject({ task_id: id, action: "MUSIC", progress: "100%" });
    expect(done.data[0].title).toBe("mock song");
    const many = (await (await bearer(bobKey, "/suno/fetch", { ids: [id] })).json()) as { data: { task_id: string }[] };
    expect(many.data.map((t) => t.task_id)).toEqual([id]);
    expect(await quotaOf(bob.id)).toBe(before - units(PRICES.suno_music));
    const list = await bob.client.get<Record<string, any>[]>(`/api/task/self?task_id=${id}`);
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ task_id: id, platform: "suno", action: "MUSIC", status: "SUCCESS", channel_id: 0 });
    const admin = await root.get<Record<string, any>[]>(`/api/task/?channel_id=${sunoChannel}&task_id=${id}`);
    expect(admin.data[0].channel_id).toBe(sunoChannel);
    // the token's remaining quota moved with it
    const [tok] = await query(server, 'SELECT "remain_quota" FROM "tokens" WHERE "user_id" = $1', [bob.id]);
    expect(Number(tok.remain_quota)).toBe(1_000_000 - units(PRICES.suno_music));
    // alice cannot read it
    expect((await bearer(aliceKey, `/suno/fetch/${id}`)).status).toBe(404);
    expect(((await (await bearer(aliceKey, "/suno/fetch", { ids: [id] })).json()) as { data: unknown[] }).data).toEqual([]);
  });

  it("keeps each call's request id: the client's or a new one, in the answer's header and on the task's log row", async () => {
    const submit = async (headers: Record<string, string>) => {
      const res = await fetch(`${server.url}/suno/submit/lyrics`, {
        method: "POST",
        headers: Object.assign({ authorization: `Bearer ${bobKey}`, "content-type": "application/json" }, headers),
        body: JSON.stringify({ prompt: "words with an id" }),
      });
      const id = ((await res.json()) as { data: string }).data;
      await until(
        "lyrics",
        async () => ((await (await bearer(bobKey, `/suno/fetch/${id}`)).json()) as { data: { status: string } }).data.status,
        (st) => st === "SUCCESS",
      );
      return { header: res.headers.get("x-request-id"), row: await rowOf("creative_tasks", "task_id", id) };
    };
    const logged = (ref: string) =>
      until(
        "log row",
        async () => (await query(server, 'SELECT "request_id" FROM "logs" WHERE "type" = 2 AND "request_id" = $1', [ref])).length,
        (n) => n === 1,
      );
    const own = await submit({ "x-request-id": "trace-task-0001" });
    expect(own.header).toBe("trace-task-0001");
    await logged("trace-task-0001");
    // a client's id may repeat: the reservation's ledger ref is not it
    expect(own.row.billing_ref).not.toBe("trace-task-0001");
    const made = await submit({});
    expect(made.header).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(made.row.billing_ref).toBe(made.header);
    await logged(made.header!);
    // the errors this front writes end with it
    const bad = await fetch(`${server.url}/suno/submit/lyrics`, {
      method: "POST",
      headers: { authorization: "Bearer sk-nope", "content-type": "application/json", "x-request-id": "trace-task-0002" },
      body: "{}",
    });
    expect(((await bad.json()) as { message: string }).message).toMatch(/ \(request id: trace-task-0002\)$/);
  });

  it("counts each submit in the relay counter by its served model and channel, and a refused one without them", async () => {
    const served = { route: "task-suno", model: "suno_lyrics", channel: String(sunoChannel), outcome: "success" };
    const refused = { route: "task-suno", model: "", channel: "", outcome: "rejected" };
    const [ok0, no0] = [await relayCount(served), await relayCount(refused)];
    const r = await bearer(bobKey, "/suno/submit/lyrics", { prompt: "counted words" });
    expect(r.status).toBe(200);
    expect((await bearer("sk-nope", "/suno/submit/lyrics", { prompt: "x" })).status).toBe(401);
    // a task's status read is not a relay call
    await bearer(bobKey, `/suno/fetch/${((await r.json()) as { data: string }).data}`);
    expect(await relayCount(served)).toBe(ok0 + 1);
    expect(await relayCount(refused)).toBe(no0 + 1);
  });

  it("refunds a song that fails upstream once, token included, and one the upstream refuses", async () => {
    const before = await quotaOf(bob.id);
    const [tokBefore] = await query(server, 'SELECT "remain_quota" FROM "tokens" WHERE "user_id" = $1', [bob.id]);
    const r = (await (await bearer(bobKey, "/suno/submit/music", { prompt: "this will fail" })).json()) as { data: string };
    await until(
      "song failure",
      async () => ((await (await bearer(bobKey, `/suno/fetch/${r.data}`)).json()) as { data: any }).data.status,
      (s) => s === "FAILURE",
    );
    await until(
      "refund",
      () => quotaOf(bob.id),
      (q) => q === before,
    );
    await new Promise((res) => setTimeout(res, 2000));
    expect(await quotaOf(bob.id)).toBe(before);
    const [tok] = await query(server, 'SELECT "remain_quota" FROM "tokens" WHERE "user_id" = $1', [bob.id]);
    expect(Number(tok.remain_quota)).toBe(Number(tokBefore.remain_quota));
    const row = await rowOf("creative_tasks", "task_id", r.data);
    expect(row.fail_reason).toBe("the mock refused to sing");
    expect(await ledgerKinds(row.billing_ref)).toEqual([`relay_reserve:${-units(PRICES.suno_music)}`, `relay_refund:${units(PRICES.suno_music)}`]);

    const refused = await bearer(bobKey, "/suno/submit/lyrics", { prompt: "refuse me" });
    expect(((await refused.json()) as { code: string; message: string }).message).toBe("the prompt is not allowed");
    expect(await quotaOf(bob.id)).toBe(before);
    expect(await ledgerSum(bob.id)).toBe(before);
  });

  it("is closed while TaskEnabled is off", async () => {
    await setOptions(root, { TaskEnabled: "false" });
    const r = await bearer(bobKey, "/suno/submit/lyrics", { prompt: "x" });
    expect(r.status).toBe(403);
    expect(((await r.json()) as { code: string }).code).toBe("error");
    await setOptions(root, { TaskEnabled: "true" });
  });
});

describe("video (/v1/videos) with the official SDK", () => {
  it("charges the model's price, polls to completed, and streams the content", async () => {
    const client = new OpenAI({ apiKey: aliceKey, baseURL: `${server.url}/v1` });
    const before = await quotaOf(alice.id);
    const v = await client.videos.create({ model: "sora-2", prompt: "a cat on a skateboard", seconds: "4" });
    expect(v.id).toMatch(/^video_[0-9a-f]{24}$/);
    expect(v.model).toBe("sora-2");
    expect(await quotaOf(alice.id)).toBe(before - units(PRICES["sora-2"]));
    const done = await until(
      "video",
      () => client.videos.retrieve(v.id),
      (x) => x.status === "completed",
    );
    expect(done.progress).toBe(100);
    const content = await client.videos.downloadContent(v.id);
    expect(Buffer.from(await content.arrayBuffer())).toEqual(MP4);
    expect(await quotaOf(alice.id)).toBe(before - units(PRICES["sora-2"]));
    // another user: not found
    const other = new OpenAI({ apiKey: bobKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(other.videos.retrieve(v.id)).rejects.toMatchObject({ status: 404 });
  });

  it("answers a 502, not a 500, when the upstream cannot give a finished video's file", async () => {
    const client = new OpenAI({ apiKey: aliceKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const v = await client.videos.create({ model: "sora-2", prompt: "a lost file" });
    await until(
      "video",
      () => client.videos.retrieve(v.id),
      (x) => x.status === "completed",
    );
    await expect(client.videos.downloadContent(v.id)).rejects.toMatchObject({ status: 502 });
  });

  it("ends a video unfinished past the time limit as failed for its client too, and refunds it", async () => {
    const client = new OpenAI({ apiKey: aliceKey, baseURL: `${server.url}/v1` });
    const before = await quotaOf(alice.id);
    const v = await client.videos.create({ model: "sora-2", prompt: "rolling forever" });
    await until(
      "video running",
      () => client.videos.retrieve(v.id),
      (x) => x.status === "in_progress",
    );
    // an open task's reservation is not a difference in the ledger check (docs/statement.md)
    const check = await root.get<{ ok: boolean; tokens: unknown[] }>("/api/ledger/check");
    // (soft: the end of the video is checked either way)
    expect.soft(check.data.tokens).toEqual([]);
    expect.soft(check.data.ok).toBe(true);
    const done = await until(
      "video timeout",
      () => client.videos.retrieve(v.id),
      (x) => x.status === "failed",
      (TIMEOUT_S + 10) * 1000,
    );
    expect(done).toMatchObject({ id: v.id, model: "sora-2", error: { code: "task_timed_out", message: "task timed out" } });
    const row = await rowOf("creative_tasks", "task_id", v.id);
    expect(row).toMatchObject({ status: "FAILURE", fail_reason: "task timed out", billing_state: "refunded" });
    await until(
      "refund",
      () => quotaOf(alice.id),
      (q) => q === before,
    );
    expect(await ledgerKinds(row.billing_ref)).toEqual([`relay_reserve:${-units(PRICES["sora-2"])}`, `relay_refund:${units(PRICES["sora-2"])}`]);
  }, 40_000);

  it("refunds a video the upstream fails", async () => {
    const client = new OpenAI({ apiKey: aliceKey, baseURL: `${server.url}/v1` });
    const before = await quotaOf(alice.id);
    const v = await client.videos.create({ model: "sora-2", prompt: "this will fail" });
    const done = await until(
      "video failure",
      () => client.videos.retrieve(v.id),
      (x) => x.status === "failed",
    );
    expect(done.error?.message).toBe("the mock blocked the video");
    await until(
      "refund",
      () => quotaOf(alice.id),
      (q) => q === before,
    );
    expect(await ledgerSum(alice.id)).toBe(before);
  });
});

describe('a plan pays for tasks (docs/plans.md, "Tasks")', () => {
  it("reserves the price from the plan's pot, refunds a failed task into it, and answers 429 naming the plan when it is spent", async () => {
    const carol = await makeUser(server, root, "carol");
    expect((await root.put("/api/user/", { id: carol.id, quota: 5_000_000 })).success).toBe(true);
    const price = units(PRICES.mj_imagine);
    const plan = await root.post<{ id: number }>("/api/plan/", {
      name: "Drawing plan",
      price: "1",
      currency: "USD",
      duration_days: 30,
      quota: price * 2,
      reset_period: "none",
      models: ["mj_imagine"],
    });
    expect(plan.success, plan.message).toBe(true);
    const grant = await root.post<{ id: number }>(`/api/user/${carol.id}/plan`, { plan_id: plan.data.id });
    expect(grant.success, grant.message).toBe(true);
    const subId = grant.data.id;
    expect((await carol.client.put("/api/user/plan/preference", { billing_preference: "plan_first", wallet_fallback: false })).success).toBe(true);
    const key = (await carol.client.post<{ key: string }[]>("/api/token/", { name: "c", unlimited_quota: true })).data[0].key;
    const used = async () => Number((await query(server, 'SELECT "period_used" FROM "subscriptions" WHERE "id" = $1', [subId]))[0].period_used);
    const potKinds = async (ref: string) =>
      (await query(server, 'SELECT "kind", "delta", "subscription_id" FROM "quota_ledger" WHERE "ref" = $1 ORDER BY "id"', [ref])).map(
        (r) => `${r.kind}:${r.delta}@${r.subscription_id}`,
      );
    const balance = await quotaOf(carol.id);

    // a task that succeeds: paid by the pot, the balance untouched
    const ok = (await (await mj(key, "/mj/submit/imagine", { prompt: "a plan-paid fox" })).json()) as { code: number; result: string };
    expect(ok.code).toBe(1);
    expect(await used()).toBe(price);
    const okRow = await rowOf("image_tasks", "mj_id", ok.result);
    expect(Number(okRow.subscription_id)).toBe(subId);
    await until(
      "success",
      () => mjTask(key, ok.result),
      (t) => t.status === "SUCCESS",
    );
    expect(await used()).toBe(price);
    expect(await quotaOf(carol.id)).toBe(balance);
    expect(await potKinds(okRow.billing_ref)).toEqual([`relay_reserve:${-price}@${subId}`]);

    // a task that fails: its price goes back to the pot, once
    const bad = (await (await mj(key, "/mj/submit/imagine", { prompt: "this will fail" })).json()) as { result: string };
    expect(await used()).toBe(price * 2);
    await until("refund into the pot", used, (u) => u === price);
    const badRow = await rowOf("image_tasks", "mj_id", bad.result);
    expect(badRow.billing_state).toBe("refunded");
    expect(await potKinds(badRow.billing_ref)).toEqual([`relay_reserve:${-price}@${subId}`, `relay_refund:${price}@${subId}`]);

    // the pot holds one more imagine; the next one is refused in the Midjourney route's shape
    expect(((await (await mj(key, "/mj/submit/imagine", { prompt: "the last fox" })).json()) as { code: number }).code).toBe(1);
    const before = up.requests.length;
    const spent = await mj(key, "/mj/submit/imagine", { prompt: "one fox too many" });
    expect(spent.status).toBe(429);
    expect(Number(spent.headers.get("retry-after"))).toBeGreaterThan(29 * 86400);
    expect(((await spent.json()) as { description: string }).description).toContain("Drawing plan");
    expect(up.requests.length).toBe(before);
    expect(await quotaOf(carol.id)).toBe(balance);
    const wallet = await query(server, 'SELECT "delta" FROM "quota_ledger" WHERE "user_id" = $1 AND "subscription_id" = 0', [carol.id]);
    expect(wallet.reduce((sum, r) => sum + Number(r.delta), 0)).toBe(balance);

    // a model the plan does not name is paid from the balance
    const song = (await (await bearer(key, "/suno/submit/lyrics", { prompt: "balance-paid words" })).json()) as { data: string };
    expect(song.data).toBeTruthy();
    expect(await quotaOf(carol.id)).toBe(balance - units(PRICES.suno_lyrics));
    expect(await used()).toBe(price * 2);

    const check = await root.get<{ ok: boolean; subscriptions: unknown[]; users: unknown[] }>("/api/ledger/check");
    expect(check.data).toMatchObject({ ok: true, subscriptions: [], users: [] });
  });
});
