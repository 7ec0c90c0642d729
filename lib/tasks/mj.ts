// Midjourney through a Midjourney-proxy channel (type 2), docs/tasks.md "Midjourney".
// Submits are priced by the action's model name (mj_imagine, mj_upscale, ...), sent to the
// channel's /mj/submit/{kind} with the channel key in `mj-api-secret`, and recorded as an
// image task under a public id of ours; fetches read our row (kept fresh by the poller and,
// with MjNotifyEnabled, by the upstream's callbacks).
import "server-only";
import { logger } from "@/lib/logger";
import type { ImageTask } from "@/generated/sqlite/client";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getBool } from "@/lib/options/store";
import type { TokenContext } from "@/lib/relay/token-cache";
import { timingSafeEqual } from "node:crypto";
import { closeTaskBilling, FINAL, updateOpenTask } from "@/lib/tasks/billing";
import {
  backoffTasks,
  billingColumns,
  failSubmit,
  markSubmitted,
  mjPublicId,
  notifySignature,
  nowMs,
  openTask,
  pollIntervalSec,
  prepareSubmit,
  serverAddress,
  submitStranded,
  taskTimeoutSec,
  type TaskCall,
} from "@/lib/tasks/common";
import { asNumber, asRecord, asString, callUpstream, joinUrl, POLL_TIMEOUT_MS, scrub } from "@/lib/tasks/upstream";
import { nowSeconds } from "@/lib/time";

const log = logger("tasks");

const MJ_CHANNEL_TYPE = 2;
const servesMj = (type: number) => type === MJ_CHANNEL_TYPE;

export const MJ_SUBMIT_KINDS = ["imagine", "change", "simple-change", "describe", "blend", "action", "modal", "shorten"] as const;
export type MjSubmitKind = (typeof MJ_SUBMIT_KINDS)[number];

// Midjourney-proxy answer codes: 1 submitted, 21 already exists, 22 queued. Anything else is a refusal.
const ACCEPTED = new Set([1, 21, 22]);
// Our own refusals, in the proxy's code space: 4 a bad request, 5 anything else.
export const MJ_CODE_BAD_REQUEST = 4;
export const MJ_CODE_ERROR = 5;

// The action of a button's customId (MJ::JOB::upsample::1::hash, MJ::Outpaint::50::1::hash, ...).
export function actionOfCustomId(customId: string): string {
  const c = customId.toLowerCase();
  if (c.includes("::upsample")) return "UPSCALE";
  if (c.includes("::high_variation")) return "HIGH_VARIATION";
  if (c.includes("::low_variation")) return "LOW_VARIATION";
  if (c.includes("::variation")) return "VARIATION";
  if (c.includes("::reroll")) return "REROLL";
  if (c.includes("::pan_")) return "PAN";
  if (c.includes("::customzoom")) return "CUSTOM_ZOOM";
  if (c.includes("::outpaint")) return "ZOOM";
  if (c.includes("::inpaint")) return "INPAINT";
  return "";
}

// The actions whose step only opens the upstream's modal: the task then waits (status MODAL)
// for the client's /mj/submit/modal, which is the step that is charged (mj_modal). As in
// new-api, nothing is reserved for the opening step, and its row, which costs nothing, is
// closed (billing_state "none") as soon as it waits for the modal, at submit or at a poll, so
// that it is neither polled nor failed at the time limit; the modal's own row follows the
// task from there.
const OPENS_MODAL = new Set(["INPAINT", "CUSTOM_ZOOM"]);
const MODAL = "MODAL";
// billing_state of a row that never held a reservation: nothing to settle or refund.
const NOTHING_RESERVED = "none";

// The model name an action is priced and routed by.
export const mjModelOf = (action: string) => `mj_${action.toLowerCase()}`;

// --midjourney mode flags, removed from prompts when MjModeClearEnabled
export function clearMode(prompt: string): string {
  return prompt
    .replace(/\s*--(fast|relax|turbo)\b/gi, "")
    .replace(/\s{2,}/g, " ")
    .trim();
}

const bad = (detail: string) => new AppError("INVALID_INPUT", "invalid_parameter_detail", { detail });

type Parsed = { action: string; upstreamBody: Record<string, unknown>; originId?: string; prompt: string; description: string };

// What a submit asks for, checked (a bad request is refused before anything is reserved).
function parseSubmit(kind: MjSubmitKind, body: Record<string, unknown>): Parsed {
  const b: Record<string, unknown> = Object.assign({}, body);
  delete b.notifyHook;
  if (!getBool("MjAccountFilterEnabled")) delete b.accountFilter;
  const str = (k: string) => (typeof b[k] === "string" ? (b[k] as string) : "");
  if (typeof b.prompt === "string" && getBool("MjModeClearEnabled")) b.prompt = clearMode(b.prompt);
  const prompt = str("prompt");
  switch (kind) {
    case "imagine":
      if (!prompt.trim()) throw bad("prompt is required");
      return { action: "IMAGINE", upstreamBody: b, prompt, description: "" };
    case "shorten":
      if (!prompt.trim()) throw bad("prompt is required");
      return { action: "SHORTEN", upstreamBody: b, prompt, description: "" };
    case "describe":
      if (!str("base64")) throw bad("base64 is required");
      return { action: "DESCRIBE", upstreamBody: b, prompt: "", description: "" };
    case "blend": {
      const list = b.base64Array;
      if (!Array.isArray(list) || list.length < 2 || list.length > 5 || !list.every((x) => typeof x === "string"))
        throw bad("base64Array must hold 2 to 5 images");
      return { action: "BLEND", upstreamBody: b, prompt: "", description: "" };
    }
    case "change": {
      const action = str("action").toUpperCase();
      if (!["UPSCALE", "VARIATION", "REROLL"].includes(action)) throw bad("action must be UPSCALE, VARIATION or REROLL");
      if (action !== "REROLL" && ![1, 2, 3, 4].includes(b.index as number)) throw bad("index must be 1 to 4");
      if (!str("taskId")) throw bad("taskId is required");
      b.action = action;
      return { action, upstreamBody: b, originId: str("taskId"), prompt: "", description: "" };
    }
    case "simple-change": {
      const m = /^\s*(\S+)\s+([UV])([1-4])\s*$|^\s*(\S+)\s+(R)\s*$/i.exec(str("content"));
      if (!m) throw bad("content must be '<taskId> U1..U4', '<taskId> V1..V4' or '<taskId> R'");
      const id = m[1] ?? m[4];
      const letter = (m[2] ?? m[5]).toUpperCase();
      const action = letter === "U" ? "UPSCALE" : letter === "V" ? "VARIATION" : "REROLL";
      return { action, upstreamBody: b, originId: id, prompt: "", description: `${letter}${m[3] ?? ""}` };
    }
    case "action": {
      const customId = str("customId");
      if (!customId || !str("taskId")) throw bad("customId and taskId are required");
      const action = actionOfCustomId(customId);
      if (!action) throw bad("customId names no known action");
      return { action, upstreamBody: b, originId: str("taskId"), prompt: "", description: "" };
    }
    case "modal":
      if (!str("taskId")) throw bad("taskId is required");
      return { action: "MODAL", upstreamBody: b, originId: str("taskId"), prompt, description: "" };
  }
}

// The upstream body with the origin task's id replaced by the upstream's own.
function withUpstreamOrigin(kind: MjSubmitKind, body: Record<string, unknown>, origin: ImageTask): Record<string, unknown> {
  if (kind === "simple-change") body.content = String(body.content).replace(/^\s*\S+/, origin.upstream_id);
  else body.taskId = origin.upstream_id;
  return body;
}

export type MjAnswer = { code: number; description: string; result: string | null; properties: Record<string, unknown> };

export async function submitMj(call: TaskCall, kind: MjSubmitKind, body: Record<string, unknown>): Promise<MjAnswer> {
  const { token } = call;
  const parsed = parseSubmit(kind, body);
  let origin: ImageTask | null = null;
  if (parsed.originId) {
    origin = await db().imageTask.findFirst({ where: { mj_id: parsed.originId, user_id: token.user.id } });
    if (!origin) throw new AppError("NOT_FOUND", "task_not_found");
    // a modal continues a task that waits for input (status MODAL), never a finished one
    if (getBool("MjActionCheckSuccessEnabled") && kind !== "modal" && origin.status !== "SUCCESS") throw new AppError("RULE", "task_not_succeeded");
    withUpstreamOrigin(kind, parsed.upstreamBody, origin);
  }
  const model = mjModelOf(parsed.action);
  const opensModal = OPENS_MODAL.has(parsed.action);
  const s = await prepareSubmit(call, model, servesMj, parsed.prompt, origin ? origin.channel_id : undefined, !opensModal);
  const id = mjPublicId();
  const address = serverAddress();
  if (getBool("MjNotifyEnabled") && address) parsed.upstreamBody.notifyHook = `${address}/mj/notify/${id}/${notifySignature(id)}`;
  // the reservation and the row (status "" = submitting) in one transaction
  const row = await openTask(s, (tx) =>
    tx.imageTask.create({
      data: Object.assign(
        {
          code: 0,
          action: parsed.action,
          mj_id: id,
          prompt: parsed.prompt,
          description: parsed.description,
          state: asString(body.state),
          submit_time: BigInt(nowMs()),
          status: "",
          progress: "0%",
          properties: "{}",
        },
        billingColumns(s),
      ),
    }),
  );
  let answer: { status: number; json: unknown; text: string };
  try {
    answer = await callUpstream(joinUrl(s.channel.base_url, `/mj/submit/${kind}`), {
      method: "POST",
      headers: { "mj-api-secret": s.channel.key },
      body: parsed.upstreamBody,
    });
  } catch (err) {
    // the detail (host, port, the upstream's words) stays in the server's log
    log.error({ channelId: s.channel.id, error: scrub(err instanceof Error ? err.message : String(err), s.channel.key) }, "midjourney submit failed");
    await failSubmit("image", row, "upstream unreachable", BigInt(nowMs()));
    throw new AppError("UPSTREAM", "task_upstream_unreachable");
  }
  const j = asRecord(answer.json);
  const code = asNumber(j.code);
  const upstreamId = asString(j.result);
  if (answer.status >= 300 || !ACCEPTED.has(code) || !upstreamId) {
    const description = scrub(asString(j.description) || `upstream answered HTTP ${answer.status}`, s.channel.key);
    await failSubmit("image", row, description, BigInt(nowMs()));
    return { code: code && !ACCEPTED.has(code) ? code : MJ_CODE_ERROR, description, result: null, properties: asRecord(j.properties) };
  }
  const waiting = asString(asRecord(j.properties).status) === MODAL;
  const submitted = {
    code,
    upstream_id: upstreamId,
    description: parsed.description || asString(j.description),
    status: waiting ? MODAL : code === 22 ? "SUBMITTED" : "NOT_START",
    properties: JSON.stringify(asRecord(j.properties)),
  };
  await markSubmitted("image", row.id, opensModal && waiting ? Object.assign(submitted, { billing_state: NOTHING_RESERVED }) : submitted);
  return { code, description: asString(j.description) || "Submit success", result: id, properties: asRecord(j.properties) };
}

// The image URL a client or the console is shown: with MjForwardUrlEnabled (and ServerAddress),
// the gateway's own /mj/image/{id}, never the upstream's address.
export function shownImageUrl(t: { image_url: string; mj_id: string }): string {
  const address = serverAddress();
  return t.image_url && getBool("MjForwardUrlEnabled") && address ? `${address}/mj/image/${t.mj_id}` : t.image_url;
}

// The task as a Midjourney-proxy client reads it.
export function mjView(t: ImageTask) {
  const parse = (s: string, empty: unknown) => {
    try {
      return s ? JSON.parse(s) : empty;
    } catch {
      return empty;
    }
  };
  const imageUrl = shownImageUrl(t);
  return {
    id: t.mj_id,
    action: t.action,
    prompt: t.prompt,
    promptEn: t.prompt_en,
    description: t.description,
    state: t.state,
    submitTime: Number(t.submit_time),
    startTime: Number(t.start_time),
    finishTime: Number(t.finish_time),
    imageUrl,
    status: t.status,
    progress: t.progress,
    failReason: t.fail_reason,
    buttons: parse(t.buttons, []),
    properties: parse(t.properties, {}),
  };
}

export async function fetchMj(token: TokenContext, id: string) {
  const t = await db().imageTask.findFirst({ where: { mj_id: id, user_id: token.user.id } });
  if (!t) throw new AppError("NOT_FOUND", "task_not_found");
  return mjView(t);
}

export async function listMjByCondition(token: TokenContext, body: Record<string, unknown>) {
  const ids = Array.isArray(body.ids) ? body.ids.filter((x): x is string => typeof x === "string").slice(0, 100) : [];
  if (!ids.length) return [];
  const rows = await db().imageTask.findMany({ where: { mj_id: { in: ids }, user_id: token.user.id }, orderBy: { id: "desc" } });
  return rows.map(mjView);
}

// The stored image of a task, for GET /mj/image/{id} (MjForwardUrlEnabled).
export async function mjImageSource(id: string): Promise<string | null> {
  if (!getBool("MjForwardUrlEnabled")) return null;
  const t = await db().imageTask.findFirst({ where: { mj_id: id }, select: { image_url: true } });
  return t?.image_url || null;
}

// An upstream task (fetched, listed or called back) applied to our row. A final status is
// written with the money in one transaction (closeTaskBilling); any update of a closed task
// (a late callback, a poll that raced it) changes nothing.
export async function applyMjUpdate(row: ImageTask, up: Record<string, unknown>): Promise<void> {
  if (row.billing_state !== "reserved") return;
  const status = asString(up.status) || row.status;
  const data = {
    status,
    prompt: row.prompt,
    progress: asString(up.progress) || row.progress,
    prompt_en: asString(up.promptEn) || row.prompt_en,
    description: asString(up.description) || row.description,
    image_url: asString(up.imageUrl) || row.image_url,
    fail_reason: asString(up.failReason).slice(0, 2000) || row.fail_reason,
    start_time: BigInt(asNumber(up.startTime) || Number(row.start_time)),
    finish_time: BigInt(asNumber(up.finishTime) || Number(row.finish_time) || (FINAL.has(status) ? nowMs() : 0)),
    buttons: Array.isArray(up.buttons) ? JSON.stringify(up.buttons) : row.buttons,
    properties: up.properties && typeof up.properties === "object" ? JSON.stringify(up.properties) : row.properties,
    poll_errors: 0,
    next_poll_at: BigInt(nowSeconds() + pollIntervalSec()),
  };
  if (status === "FAILURE" && !data.fail_reason) data.fail_reason = "upstream failure";
  // a describe's answer is its prompt
  if (row.action === "DESCRIBE") data.prompt = asString(up.prompt) || row.prompt;
  if (status === "SUCCESS") await closeTaskBilling("image", row, "success", "", data);
  else if (status === MODAL && OPENS_MODAL.has(row.action) && row.quota === 0n)
    await updateOpenTask("image", row.id, Object.assign(data, { billing_state: NOTHING_RESERVED }));
  else if (status === "FAILURE") await closeTaskBilling("image", row, "failure", data.fail_reason, data);
  else await updateOpenTask("image", row.id, data);
}

// One poll round over due image tasks of one channel: list-by-condition in one call.
export async function pollMjTasks(rows: ImageTask[], channel: { base_url: string; key: string } | null): Promise<void> {
  const timeout = taskTimeoutSec() * 1000;
  const live: ImageTask[] = [];
  for (const r of rows) {
    const age = nowMs() - Number(r.submit_time);
    if (submitStranded(r, age / 1000)) {
      // the submit never finished (a crash between the reservation and the upstream's answer)
      await closeTaskBilling("image", r, "failure", "submit not finished", {
        status: "FAILURE",
        fail_reason: "submit not finished",
        finish_time: BigInt(nowMs()),
      });
    } else if (!r.upstream_id) continue;
    else if (age > timeout) {
      await closeTaskBilling("image", r, "failure", "task timed out", { status: "FAILURE", fail_reason: "task timed out", finish_time: BigInt(nowMs()) });
    } else live.push(r);
  }
  if (!live.length) return;
  if (!channel) return backoffTasks("image", live);
  try {
    const a = await callUpstream(joinUrl(channel.base_url, "/mj/task/list-by-condition"), {
      method: "POST",
      headers: { "mj-api-secret": channel.key },
      body: { ids: live.map((r) => r.upstream_id) },
      timeoutMs: POLL_TIMEOUT_MS,
    });
    if (a.status >= 300 || !Array.isArray(a.json)) return backoffTasks("image", live);
    const byId = new Map<string, Record<string, unknown>>();
    for (const t of a.json) byId.set(asString(asRecord(t).id), asRecord(t));
    for (const r of live) {
      const up = byId.get(r.upstream_id);
      if (up) await applyMjUpdate(r, up);
      else await backoffTasks("image", [r]);
    }
  } catch {
    await backoffTasks("image", live);
  }
}

// A callback of the upstream at /mj/notify/{id}/{signature}: applied when the signature and
// the upstream id match.
export async function notifyMj(id: string, signature: string, body: Record<string, unknown>): Promise<boolean> {
  if (!getBool("MjNotifyEnabled")) return false;
  const expected = Buffer.from(notifySignature(id));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  const row = await db().imageTask.findFirst({ where: { mj_id: id } });
  if (!row || !row.upstream_id || asString(body.id) !== row.upstream_id) return false;
  await applyMjUpdate(row, body);
  return true;
}
