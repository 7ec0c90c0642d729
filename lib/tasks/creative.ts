// Creative tasks: Suno music and lyrics through a Suno API channel (type 36), and OpenAI-style
// video generation (/v1/videos) through an OpenAI-wire channel. Both are CreativeTask rows under
// a public id of ours; docs/tasks.md "Suno" and "Video".
import "server-only";
import { logger } from "@/lib/logger";
import type { CreativeTask } from "@/generated/sqlite/client";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { TokenContext } from "@/lib/relay/token-cache";
import { OPENAI_HOSTS } from "@/lib/relay/providers/openai";
import { channelIndex } from "@/lib/channels/channel-cache";
import { closeTaskBilling, FINAL, updateOpenTask } from "@/lib/tasks/billing";
import {
  backoffTasks,
  billingColumns,
  failSubmit,
  markSubmitted,
  openTask,
  pollIntervalSec,
  prepareSubmit,
  publicId,
  submitStranded,
  taskTimeoutSec,
  type TaskCall,
} from "@/lib/tasks/common";
import { asNumber, asRecord, asString, callUpstream, joinUrl, POLL_TIMEOUT_MS, scrub } from "@/lib/tasks/upstream";
import { nowSeconds } from "@/lib/time";

const log = logger("tasks");

const SUNO_CHANNEL_TYPE = 36;
// Video polls per channel and round (each is one GET): the rest wait for the next round.
const VIDEOS_PER_ROUND = 20;
const servesSuno = (type: number) => type === SUNO_CHANNEL_TYPE;
const OPENAI_WIRE = new Set<number>(OPENAI_HOSTS.map((h) => h.type));
const servesVideo = (type: number) => OPENAI_WIRE.has(type);
const OPENAI_BASE = "https://api.openai.com";

export const SUNO_ACTIONS = { music: "MUSIC", lyrics: "LYRICS" } as const;
export type SunoKind = keyof typeof SUNO_ACTIONS;
export const VIDEO_ACTION = "VIDEO";

const bad = (detail: string) => new AppError("INVALID_INPUT", "invalid_parameter_detail", { detail });

function baseOf(t: { type: number; base_url: string }): string {
  return t.base_url || (t.type === 1 ? OPENAI_BASE : "");
}

// The row of a new task, written with its reservation (one transaction) before the upstream is
// called (status "" = submitting).
async function createRow(s: Awaited<ReturnType<typeof prepareSubmit>>, id: string, platform: string, action: string) {
  const now = nowSeconds();
  return openTask(s, (tx) =>
    tx.creativeTask.create({
      data: Object.assign(
        { task_id: id, platform, action, status: "", submit_time: BigInt(now), progress: "0%", data: "", created_at: BigInt(now), updated_at: BigInt(now) },
        billingColumns(s),
      ),
    }),
  );
}

// The upstream could not be reached: the detail (host, port) goes to the server's log only.
async function unreachable(row: CreativeTask, s: Awaited<ReturnType<typeof prepareSubmit>>, err: unknown): Promise<never> {
  log.error({ channelId: s.channel.id, error: scrub(err instanceof Error ? err.message : String(err), s.channel.key) }, "submit failed");
  await failSubmit("creative", row, "upstream unreachable", BigInt(nowSeconds()));
  throw new AppError("UPSTREAM", "task_upstream_unreachable");
}

// ---------- Suno ----------

export type SunoAnswer = { code: string; message: string; data: unknown };

export async function submitSuno(call: TaskCall, kind: SunoKind, body: Record<string, unknown>): Promise<SunoAnswer> {
  const action = SUNO_ACTIONS[kind];
  if (kind === "lyrics" && !asString(body.prompt).trim()) throw bad("prompt is required");
  if (kind === "music" && !asString(body.prompt).trim() && !asString(body.gpt_description_prompt).trim() && !asString(body.tags).trim()) {
    throw bad("prompt, gpt_description_prompt or tags is required");
  }
  const words = [body.prompt, body.gpt_description_prompt, body.tags, body.title].map(asString).join("\n");
  const s = await prepareSubmit(call, `suno_${kind}`, servesSuno, words);
  const id = publicId("");
  const row = await createRow(s, id, "suno", action);
  let a: { status: number; json: unknown };
  try {
    a = await callUpstream(joinUrl(baseOf(s.channel), `/suno/submit/${kind}`), { method: "POST", headers: { authorization: `Bearer ${s.channel.key}` }, body });
  } catch (err) {
    return unreachable(row, s, err);
  }
  const j = asRecord(a.json);
  const upstreamId = asString(j.data);
  if (a.status >= 300 || j.code !== "success" || !upstreamId) {
    const message = scrub(asString(j.message) || `upstream answered HTTP ${a.status}`, s.channel.key);
    await failSubmit("creative", row, message, BigInt(nowSeconds()));
    return { code: "error", message, data: null };
  }
  await markSubmitted("creative", row.id, { upstream_id: upstreamId, status: "SUBMITTED" });
  return { code: "success", message: "", data: id };
}

export function creativeView(t: CreativeTask) {
  let data: unknown = null;
  try {
    data = t.data ? JSON.parse(t.data) : null;
  } catch {
    data = null;
  }
  return {
    task_id: t.task_id,
    platform: t.platform,
    action: t.action,
    status: t.status,
    fail_reason: t.fail_reason,
    submit_time: Number(t.submit_time),
    start_time: Number(t.start_time),
    finish_time: Number(t.finish_time),
    progress: t.progress,
    data,
  };
}

export async function fetchSuno(token: TokenContext, id: string) {
  const t = await db().creativeTask.findFirst({ where: { task_id: id, user_id: token.user.id, platform: "suno" } });
  if (!t) throw new AppError("NOT_FOUND", "task_not_found");
  return creativeView(t);
}

export async function fetchSunoMany(token: TokenContext, body: Record<string, unknown>) {
  const ids = Array.isArray(body.ids) ? body.ids.filter((x): x is string => typeof x === "string").slice(0, 100) : [];
  if (!ids.length) return [];
  const rows = await db().creativeTask.findMany({ where: { task_id: { in: ids }, user_id: token.user.id, platform: "suno" }, orderBy: { id: "desc" } });
  return rows.map(creativeView);
}

// ---------- video ----------

// A multipart body (what the official SDKs send) arrives as its text fields plus its files
// (input_reference); with files it is sent upstream as multipart again, otherwise as JSON.
export type UploadedFile = { field: string; file: Blob & { name?: string } };

async function multipartOf(fields: Record<string, unknown>, files: UploadedFile[]): Promise<{ bytes: Buffer; contentType: string }> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, typeof v === "string" ? v : JSON.stringify(v));
  for (const f of files) fd.append(f.field, f.file, f.file.name ?? "upload");
  const r = new Request("http://local/", { method: "POST", body: fd });
  return { bytes: Buffer.from(await r.arrayBuffer()), contentType: r.headers.get("content-type") ?? "multipart/form-data" };
}

export async function submitVideo(call: TaskCall, body: Record<string, unknown>, files: UploadedFile[] = []) {
  const model = asString(body.model);
  if (!model) throw bad("model is required");
  if (!asString(body.prompt).trim()) throw bad("prompt is required");
  const s = await prepareSubmit(call, model, servesVideo, asString(body.prompt));
  const base = baseOf(s.channel);
  const upstreamBody: Record<string, unknown> = Object.assign({}, body, { model: s.channel.upstreamModel });
  const id = publicId("video_");
  const row = await createRow(s, id, "openai", VIDEO_ACTION);
  let a: { status: number; json: unknown };
  try {
    if (!base) throw new Error("the channel has no base URL");
    const headers = { authorization: `Bearer ${s.channel.key}` };
    a = files.length
      ? await callUpstream(joinUrl(base, "/v1/videos"), { method: "POST", headers, raw: await multipartOf(upstreamBody, files) })
      : await callUpstream(joinUrl(base, "/v1/videos"), { method: "POST", headers, body: upstreamBody });
  } catch (err) {
    return unreachable(row, s, err);
  }
  const j = asRecord(a.json);
  const upstreamId = asString(j.id);
  if (a.status >= 300 || !upstreamId) {
    const e = asRecord(j.error);
    const message = scrub(asString(e.message) || `upstream answered HTTP ${a.status}`, s.channel.key);
    await failSubmit("creative", row, message, BigInt(nowSeconds()));
    return { status: a.status >= 400 ? a.status : 502, error: { message, type: "upstream_error", code: asString(e.code) || null } };
  }
  const view = Object.assign({}, j, { id, model });
  if (await markSubmitted("creative", row.id, { upstream_id: upstreamId, status: "SUBMITTED", data: JSON.stringify(view) })) {
    await applyVideoStatus(Object.assign({}, row, { upstream_id: upstreamId }), j);
  }
  return { status: 200, body: view };
}

const VIDEO_STATUS: Record<string, string> = { queued: "QUEUED", in_progress: "IN_PROGRESS", completed: "SUCCESS", failed: "FAILURE" };

async function ownVideo(token: TokenContext, id: string) {
  const t = await db().creativeTask.findFirst({ where: { task_id: id, user_id: token.user.id, platform: "openai" } });
  if (!t) throw new AppError("NOT_FOUND", "task_not_found");
  return t;
}

export async function fetchVideo(token: TokenContext, id: string) {
  const t = await ownVideo(token, id);
  return t.data ? (JSON.parse(t.data) as Record<string, unknown>) : { id, object: "video", status: "queued" };
}

// Where the video's bytes are read from (the upstream's content endpoint) and with which key.
export async function videoContentSource(token: TokenContext, id: string): Promise<{ url: string; key: string } | null> {
  const t = await ownVideo(token, id);
  if (t.status !== "SUCCESS") return null;
  const ch = (await channelIndex()).channels.get(t.channel_id);
  if (!ch) return null;
  const base = baseOf(ch);
  return base ? { url: joinUrl(base, `/v1/videos/${encodeURIComponent(t.upstream_id)}/content`), key: ch.key } : null;
}

// A final status is written with the money in one transaction; updates of a closed task change nothing.
async function applyVideoStatus(row: CreativeTask, up: Record<string, unknown>): Promise<void> {
  if (row.billing_state !== "reserved") return;
  const status = VIDEO_STATUS[asString(up.status)] ?? (asString(up.status) ? "UNKNOWN" : row.status);
  const err = asRecord(up.error);
  const failReason = status === "FAILURE" ? asString(err.message) || asString(err.code) || "upstream failure" : "";
  const progress = asNumber(up.progress);
  const view = Object.assign({}, up, { id: row.task_id, model: row.model_name });
  await applyCreative(row, status, failReason, {
    status,
    progress: `${Math.max(0, Math.min(100, Math.round(status === "SUCCESS" ? 100 : progress)))}%`,
    fail_reason: failReason.slice(0, 2000),
    start_time: status !== "QUEUED" && !row.start_time ? BigInt(nowSeconds()) : row.start_time,
    finish_time: FINAL.has(status) ? BigInt(asNumber(up.completed_at) || nowSeconds()) : 0n,
    data: JSON.stringify(view),
    updated_at: BigInt(nowSeconds()),
    poll_errors: 0,
    next_poll_at: BigInt(nowSeconds() + pollIntervalSec()),
  });
}

async function applyCreative(row: CreativeTask, status: string, failReason: string, data: Record<string, unknown>): Promise<void> {
  if (status === "SUCCESS") await closeTaskBilling("creative", row, "success", "", data);
  else if (status === "FAILURE") await closeTaskBilling("creative", row, "failure", failReason, data);
  else await updateOpenTask("creative", row.id, data);
}

async function applySuno(row: CreativeTask, up: Record<string, unknown>): Promise<void> {
  if (row.billing_state !== "reserved") return;
  const status = asString(up.status) || row.status;
  const failReason = asString(up.fail_reason) || (status === "FAILURE" ? "upstream failure" : "");
  await applyCreative(row, status, failReason, {
    status,
    progress: asString(up.progress) || (status === "SUCCESS" ? "100%" : row.progress),
    fail_reason: failReason.slice(0, 2000),
    start_time: BigInt(asNumber(up.start_time) || Number(row.start_time)),
    finish_time: BigInt(asNumber(up.finish_time) || (FINAL.has(status) ? nowSeconds() : 0)),
    data: up.data === undefined ? row.data : JSON.stringify(up.data),
    updated_at: BigInt(nowSeconds()),
    poll_errors: 0,
    next_poll_at: BigInt(nowSeconds() + pollIntervalSec()),
  });
}

const backoff = (rows: CreativeTask[]) => backoffTasks("creative", rows);

// The final columns of a task the gateway itself fails (the time limit, a submit that never
// finished). GET /v1/videos/{id} answers from `data`, so a video's view is ended in the same
// update: status "failed" with the reason as its error, or the client would read the last
// poll's "in_progress" for ever.
function endedHere(r: CreativeTask, reason: string, code: string): Record<string, unknown> {
  const now = nowSeconds();
  const columns: Record<string, unknown> = { status: "FAILURE", fail_reason: reason, finish_time: BigInt(now), updated_at: BigInt(now) };
  if (r.platform === "openai") {
    let last: Record<string, unknown> = {};
    try {
      last = asRecord(r.data ? JSON.parse(r.data) : null);
    } catch {
      last = {};
    }
    const view = Object.assign({ object: "video", created_at: Number(r.submit_time) }, last, {
      id: r.task_id,
      model: r.model_name,
      status: "failed",
      error: { code, message: reason },
    });
    columns.data = JSON.stringify(view);
  }
  return columns;
}

// One poll round over due creative tasks of one channel.
export async function pollCreativeTasks(rows: CreativeTask[], channel: { type: number; base_url: string; key: string } | null): Promise<void> {
  const live: CreativeTask[] = [];
  for (const r of rows) {
    const age = nowSeconds() - Number(r.submit_time);
    if (submitStranded(r, age)) {
      // the submit never finished (a crash between the reservation and the upstream's answer)
      await closeTaskBilling("creative", r, "failure", "submit not finished", endedHere(r, "submit not finished", "submit_not_finished"));
    } else if (!r.upstream_id) continue;
    else if (age > taskTimeoutSec()) {
      await closeTaskBilling("creative", r, "failure", "task timed out", endedHere(r, "task timed out", "task_timed_out"));
    } else live.push(r);
  }
  if (!live.length) return;
  if (!channel || !baseOf(channel)) return backoff(live);
  const base = baseOf(channel);
  const headers = { authorization: `Bearer ${channel.key}` };
  const suno = live.filter((r) => r.platform === "suno");
  const videos = live.filter((r) => r.platform === "openai");
  if (suno.length) {
    try {
      const a = await callUpstream(joinUrl(base, "/suno/fetch"), {
        method: "POST",
        headers,
        body: { ids: suno.map((r) => r.upstream_id) },
        timeoutMs: POLL_TIMEOUT_MS,
      });
      const j = asRecord(a.json);
      if (a.status >= 300 || j.code !== "success" || !Array.isArray(j.data)) await backoff(suno);
      else {
        const byId = new Map<string, Record<string, unknown>>();
        for (const t of j.data) byId.set(asString(asRecord(t).task_id), asRecord(t));
        for (const r of suno) {
          const up = byId.get(r.upstream_id);
          if (up) await applySuno(r, up);
          else await backoff([r]);
        }
      }
    } catch {
      await backoff(suno);
    }
  }
  for (const r of videos.slice(0, VIDEOS_PER_ROUND)) {
    try {
      const a = await callUpstream(joinUrl(base, `/v1/videos/${encodeURIComponent(r.upstream_id)}`), { method: "GET", headers, timeoutMs: POLL_TIMEOUT_MS });
      if (a.status >= 300 || !a.json) await backoff([r]);
      else await applyVideoStatus(r, asRecord(a.json));
    } catch {
      await backoff([r]);
    }
  }
}
