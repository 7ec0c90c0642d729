// The task relay's front (docs/tasks.md): the Midjourney-proxy paths (/mj/...), Suno
// (/suno/...) and OpenAI videos (/v1/videos...). server.ts hands these paths here before the
// chat relay. Each answers in its own protocol's shape, errors included:
//   Midjourney-proxy {code, description, result}, Suno {code, message, data}, OpenAI {error}.
// DrawingEnabled gates /mj, TaskEnabled gates /suno and /v1/videos.
import "server-only";
import { logger } from "@/lib/logger";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { AppError, describeError, isAppError, relayStatus, relayErrorType } from "@/lib/errors";
import { env } from "@/lib/env";
import { CLIENT_IP_HEADER } from "@/lib/http/request-info";
import { requestLocale } from "@/lib/i18n/locale";
import { renderMessage } from "@/lib/i18n/server-messages";
import { hit } from "@/lib/http/rate-limit";
import { outboundFetch, outboundRefusal } from "@/lib/net/outbound";
import { getBool } from "@/lib/options/store";
import { authenticateToken } from "@/lib/relay/token-cache";
import { clientRequestId, newRequestId, REQUEST_ID_HEADER, withRequestId } from "@/lib/http/request-id";
import {
  fetchMj,
  listMjByCondition,
  MJ_CODE_BAD_REQUEST,
  MJ_CODE_ERROR,
  MJ_SUBMIT_KINDS,
  mjImageSource,
  notifyMj,
  submitMj,
  type MjSubmitKind,
} from "@/lib/tasks/mj";
import { fetchSuno, fetchSunoMany, fetchVideo, submitSuno, submitVideo, videoContentSource, type UploadedFile } from "@/lib/tasks/creative";
import { UPSTREAM_TIMEOUT_MS } from "@/lib/tasks/upstream";
import type { TaskCall } from "@/lib/tasks/common";
import { metrics, OUTCOME, type OutcomeIndex } from "@/lib/metrics";
import { dict } from "@/lib/own-keys";
import { finish, LimitExceeded } from "@/lib/limits/engine";
import { PlanExhausted } from "@/lib/billing/store/types";
import { nowSeconds } from "@/lib/time";

const log = logger("tasks");

type Family = "mj" | "suno" | "video";

export function isTaskPath(url: string): boolean {
  return url.startsWith("/mj/") || url.startsWith("/suno/") || url === "/v1/videos" || url.startsWith("/v1/videos/") || url.startsWith("/v1/videos?");
}

function familyOf(path: string): Family {
  return path.startsWith("/mj/") ? "mj" : path.startsWith("/suno/") ? "suno" : "video";
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, family: Family, status: number, message: string, type: string, code: string | null): void {
  if (family === "mj")
    return send(res, status, { code: status === 400 || status === 404 ? MJ_CODE_BAD_REQUEST : MJ_CODE_ERROR, description: message, result: null, type });
  if (family === "suno") return send(res, status, { code: "error", message, data: null });
  send(res, status, { error: { message, type, code } });
}

function readJson(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        reject(new AppError("PAYLOAD_TOO_LARGE", "body_too_large"));
      } else chunks.push(c);
    });
    req.once("end", () => {
      try {
        const v: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
        if (v && typeof v === "object" && !Array.isArray(v)) return resolve(v as Record<string, unknown>);
      } catch {
        // below
      }
      reject(new AppError("INVALID_INPUT", "invalid_parameter_detail", { detail: "body must be a JSON object" }));
    });
    req.once("error", reject);
  });
}

function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        reject(new AppError("PAYLOAD_TOO_LARGE", "body_too_large"));
      } else chunks.push(c);
    });
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

// A multipart/form-data body (the official SDKs' videos.create): text fields and files.
async function readForm(req: IncomingMessage, contentType: string, limit: number): Promise<{ fields: Record<string, unknown>; files: UploadedFile[] }> {
  const bytes = await readBytes(req, limit);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new AppError("INVALID_INPUT", "invalid_parameter_detail", { detail: "the multipart body could not be read" });
  }
  const fields = dict<unknown>();
  const files: UploadedFile[] = [];
  form.forEach((v, k) => {
    if (typeof v === "string") fields[k] = v;
    else files.push({ field: k, file: v as Blob & { name?: string } });
  });
  return { fields, files };
}

// The key: Midjourney-proxy clients send `mj-api-secret`, others `Authorization: Bearer`.
function keyOf(req: IncomingMessage): string | null {
  const h = (n: string) => {
    const v = req.headers[n];
    return (Array.isArray(v) ? v[0] : v)?.trim() || null;
  };
  return h("mj-api-secret") ?? h("authorization");
}

// An Origin of a browser extension (chrome-extension://, moz-extension://...).
const EXTENSION_ORIGIN = /^[a-z0-9.+-]*extension:\/\//i;

// Streams an upstream file (image or video) to the client.
// `kind` ("image/", "video/"): the only content types passed on (anything else, an HTML page
// for one, is refused), always with nosniff so that a browser never reads it as another type.
async function pipeFile(res: ServerResponse, url: string, headers: Record<string, string>, kind?: string): Promise<boolean> {
  const up = await outboundFetch(url, { headers, signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS), maxRedirects: headers.authorization ? 0 : 3 });
  const type = (up.headers.get("content-type") ?? "application/octet-stream").trim();
  if (!up.ok || !up.body || (kind && !type.toLowerCase().startsWith(kind))) {
    await up.body?.cancel().catch(() => {});
    return false;
  }
  const out: Record<string, string> = { "content-type": type, "x-content-type-options": "nosniff" };
  const len = up.headers.get("content-length");
  if (len) out["content-length"] = len;
  res.writeHead(200, out);
  await new Promise<void>((resolve) => {
    const body = Readable.fromWeb(up.body as import("node:stream/web").ReadableStream);
    body.on("error", () => {
      res.destroy();
      resolve();
    });
    body.pipe(res).on("finish", resolve).on("close", resolve);
  });
  return true;
}

export async function handleTaskRelay(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const raw = q === -1 ? url : url.slice(0, q);
  const path = raw.length > 1 && raw.endsWith("/") ? raw.slice(0, -1) : raw;
  const method = req.method ?? "GET";
  const family = familyOf(path);
  // the call's request id, as on the chat relay (lib/http/request-id.ts): in the answer's
  // header, at the end of the errors this front writes, on the task's log rows
  const given = clientRequestId(req.headers[REQUEST_ID_HEADER]);
  const requestId = { id: given ?? newRequestId(), given: given !== undefined };
  res.setHeader(REQUEST_ID_HEADER, requestId.id);
  const fail = (status: number, message: string, type: string, code: string | null) =>
    sendError(res, family, status, withRequestId(message, requestId.id), type, code);
  const call: Front = { requestId };
  let outcome: OutcomeIndex | null = null;
  try {
    await dispatch(req, res, { family, method, path, call, fail });
  } catch (err) {
    if (res.headersSent) {
      if (!res.writableEnded) res.end();
      return;
    }
    const locale = requestLocale(req.headers);
    outcome = !isAppError(err) ? OUTCOME.error : err.code === "UPSTREAM" ? OUTCOME.upstream_error : OUTCOME.rejected;
    if (err instanceof LimitExceeded) res.setHeader("retry-after", String(err.retryAfter));
    if (err instanceof PlanExhausted) res.setHeader("retry-after", String(err.retryAfterSeconds(nowSeconds())));
    if (isAppError(err)) return fail(relayStatus[err.code], renderMessage(locale, err.key, err.params), relayErrorType[err.code], err.key);
    log.error({ requestId: requestId.id, error: describeError(err) }, "unexpected error");
    fail(500, "internal error", "server_error", "internal_error");
  } finally {
    // the usage limits of a submit: an accepted task keeps its price counted against the
    // periodic quotas, a refused one is taken back; the concurrency hold goes either way
    const l = (call as Pick<TaskCall, "limits">).limits;
    if (l) await finish(l.admission, { tokens: 0, quota: res.statusCode < 400 && !call.refusedUpstream ? Number(l.amount) : 0 });
    // the submits (the billable calls) in the relay's counter, as route task-<family>, by the
    // served model and channel once known; an answer's status tells the rest
    if (method === "POST" && isSubmitPath(family, path)) {
      const code = res.statusCode;
      if (call.refusedUpstream) outcome ??= OUTCOME.upstream_error;
      outcome ??= code < 400 ? OUTCOME.success : code < 500 ? OUTCOME.rejected : OUTCOME.upstream_error;
      metrics()
        .route(`task-${family}`)
        .request(call.served?.model ?? "", call.served?.channelId ?? 0, outcome)
        .inc();
    }
  }
}

// GET /mj/image/{id} (docs/tasks.md, MjForwardUrlEnabled): open to anyone who knows a task id,
// so it is limited per client address (MJ_IMAGE_RATE_LIMIT a minute, the project's counters:
// lib/http/rate-limit.ts). A stored image the upstream cannot give (unreachable, refused by the
// outbound policy, an error status, not an image) is a 502 with one log line, never a stack.
async function mjImage(req: IncomingMessage, res: ServerResponse, id: string, front: Front, fail: Dispatch["fail"], notFound: () => void): Promise<void> {
  const locale = requestLocale(req.headers);
  const ip = String(req.headers[CLIENT_IP_HEADER] ?? "");
  if (!(await hit(`mj-image:${ip}`, env().MJ_IMAGE_RATE_LIMIT, MJ_IMAGE_RATE_WINDOW_SECONDS))) {
    return fail(429, renderMessage(locale, "too_many_requests"), "rate_limit_error", "rate_limited");
  }
  const src = await mjImageSource(id);
  if (!src) return notFound();
  let reason: string;
  try {
    if (await pipeFile(res, src, {}, "image/")) return;
    reason = "not an image";
  } catch (err) {
    reason = outboundRefusal(err)?.reason ?? errorReason(err);
  }
  log.warn({ requestId: front.requestId.id, mj_id: id, reason }, "the stored image of a task could not be fetched");
  fail(502, renderMessage(locale, "mj_image_unavailable"), "upstream_error", "upstream_image_unavailable");
}

const MJ_IMAGE_RATE_WINDOW_SECONDS = 60;

// A short reason for a log line: a timeout, the system error code, or the error's name.
function errorReason(err: unknown): string {
  const e = err as { name?: string; code?: string; cause?: { code?: string } } | null;
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return "timeout";
  return e?.cause?.code ?? e?.code ?? e?.name ?? "error";
}

// The paths that submit a task: /mj/submit/*, /suno/submit/*, /v1/videos.
const isSubmitPath = (family: Family, path: string) => (family === "video" ? path === "/v1/videos" : path.startsWith(`/${family}/submit/`));

// What the front knows of a call: its request id, and for the counter the model and channel
// that served a submit (set by prepareSubmit) and whether the upstream refused it.
type Front = Pick<TaskCall, "requestId" | "served"> & { refusedUpstream?: boolean };

type Dispatch = {
  family: Family;
  method: string;
  path: string;
  call: Front;
  fail: (status: number, message: string, type: string, code: string | null) => void;
};

async function dispatch(req: IncomingMessage, res: ServerResponse, { family, method, path, call: front, fail }: Dispatch): Promise<void> {
  const notFound = () => fail(404, `Unknown route: ${method} ${path}`, "invalid_request_error", "not_found");
  if (family === "mj" && !getBool("DrawingEnabled")) throw new AppError("FORBIDDEN", "drawing_disabled");
  if (family !== "mj" && !getBool("TaskEnabled")) throw new AppError("FORBIDDEN", "task_disabled");
  // global.block_browser_extension_enabled, as on the chat relay (docs/relay-options.md)
  if (getBool("global.block_browser_extension_enabled") && EXTENSION_ORIGIN.test(String(req.headers.origin ?? "")))
    throw new AppError("FORBIDDEN", "relay_browser_extension_refused");
  let parts: string[];
  try {
    parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    // a malformed % escape
    throw new AppError("INVALID_INPUT", "invalid_parameter_detail", { detail: "malformed path" });
  }

  // unauthenticated: the image of a task (MjForwardUrlEnabled) and the upstream's callbacks
  if (family === "mj" && method === "GET" && parts[1] === "image" && parts.length === 3) return mjImage(req, res, parts[2], front, fail, notFound);
  if (family === "mj" && method === "POST" && parts[1] === "notify" && parts.length === 4) {
    const body = await readJson(req, 1 << 20);
    const ok = await notifyMj(parts[2], parts[3], body);
    if (!ok) return fail(404, "unknown task or signature", "invalid_request_error", "not_found");
    return send(res, 200, { code: 1, description: "ok" });
  }

  const token = await authenticateToken(keyOf(req), { ip: String(req.headers[CLIENT_IP_HEADER] ?? "") });
  // the same object: prepareSubmit's `served` is read back by the counter
  const call = Object.assign(front, { token }) as TaskCall;
  const limit = env().RELAY_MAX_BODY_BYTES;
  if (family === "mj") {
    if (method === "POST" && parts[1] === "submit" && parts.length === 3 && (MJ_SUBMIT_KINDS as readonly string[]).includes(parts[2])) {
      const a = await submitMj(call, parts[2] as MjSubmitKind, await readJson(req, limit));
      // a Midjourney-proxy answer is 200 with its own code: one without a task id was refused
      if (a.result === null) front.refusedUpstream = true;
      return send(res, 200, a);
    }
    if (method === "GET" && parts[1] === "task" && parts.length === 4 && parts[3] === "fetch") return send(res, 200, await fetchMj(token, parts[2]));
    if (method === "POST" && path === "/mj/task/list-by-condition") return send(res, 200, await listMjByCondition(token, await readJson(req, 1 << 20)));
    return notFound();
  }
  if (family === "suno") {
    if (method === "POST" && parts[1] === "submit" && (parts[2] === "music" || parts[2] === "lyrics") && parts.length === 3) {
      const a = await submitSuno(call, parts[2], await readJson(req, limit));
      return send(res, a.code === "success" ? 200 : 502, a);
    }
    if (method === "POST" && path === "/suno/fetch")
      return send(res, 200, { code: "success", message: "", data: await fetchSunoMany(token, await readJson(req, 1 << 20)) });
    if (method === "GET" && parts[1] === "fetch" && parts.length === 3)
      return send(res, 200, { code: "success", message: "", data: await fetchSuno(token, parts[2]) });
    return notFound();
  }
  // /v1/videos
  if (method === "POST" && path === "/v1/videos") {
    const contentType = String(req.headers["content-type"] ?? "");
    const a = /^multipart\/form-data/i.test(contentType)
      ? await readForm(req, contentType, limit).then((f) => submitVideo(call, f.fields, f.files))
      : await submitVideo(call, await readJson(req, limit));
    return "error" in a ? send(res, a.status, { error: a.error }) : send(res, 200, a.body);
  }
  if (method === "GET" && parts.length === 3) return send(res, 200, await fetchVideo(token, parts[2]));
  if (method === "GET" && parts.length === 4 && parts[3] === "content") {
    const src = await videoContentSource(token, parts[2]);
    if (!src) return fail(404, "the video is not ready", "invalid_request_error", "video_not_ready");
    // as the stored image of a task: an upstream that cannot give the file is a 502 and one log line, never a stack
    let reason = "an error status";
    try {
      if (await pipeFile(res, src.url, { authorization: `Bearer ${src.key}` })) return;
    } catch (err) {
      reason = outboundRefusal(err)?.reason ?? errorReason(err);
    }
    log.warn({ requestId: front.requestId.id, video_id: parts[2], reason }, "the video of a task could not be fetched");
    return fail(502, "the upstream did not serve the video", "upstream_error", null);
  }
  notFound();
}
