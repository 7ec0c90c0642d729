// The one wrapper every console /api route handler goes through. It resolves the caller
// and its role, applies the rate limit and the body-size limit, parses path parameters,
// query and body with zod, runs the verb, and answers in the {success, message, data} envelope. Errors are
// mapped here once; unknown errors are logged server-side and answered with a generic 500.
import "server-only";
import { logger } from "@/lib/logger";
import type { z } from "zod";
import type { Ctx, UserCtx } from "@/lib/ctx";
import { hasPermission } from "@/lib/auth/permissions";
import { isAdmin, isRoot } from "@/lib/auth/roles";
import { ROUTE_PERMISSIONS, type AdminRoute, type RouteRule } from "@/lib/http/route-permissions";
import { ensureReady } from "@/lib/boot";
import { env } from "@/lib/env";
import { AppError, consoleStatus, isAppError, describeError } from "@/lib/errors";
import { authenticate } from "@/lib/http/auth";
import { CONSOLE_MAX_BODY_BYTES } from "@/lib/http/body-limit";
import { toJson } from "@/lib/http/json";
import { requireHumanCheck } from "@/lib/http/human-check";
import { hit } from "@/lib/http/rate-limit";
import { clientIp, isHttps } from "@/lib/http/request-info";
import { consoleRequestId } from "@/lib/http/request-id";
import { pickLocale, LOCALE_COOKIE } from "@/lib/i18n/locale";
import { renderMessage, type MessageKey } from "@/lib/i18n/server-messages";
import { getBool } from "@/lib/options/store";
import { consoleNote, TRACE_SLOT_HEADER } from "@/lib/tracing/console-bridge";

const log = logger("api");

export type Access = "public" | "user" | "admin" | "root";

export type { Ctx, UserCtx };

type Options<Q extends z.ZodType | undefined, B extends z.ZodType | undefined, P extends z.ZodType | undefined = undefined> = {
  access: Access;
  // An admin route's row of the permission table (lib/http/route-permissions.ts, docs/permissions.md),
  // "METHOD /path" as its place under app/ names it: required with access "admin".
  gate?: AdminRoute;
  params?: P; // path parameters ([id] folders)
  query?: Q;
  body?: B;
  // "critical": login, register and similar calls share a tight per-address limit.
  rateLimit?: "critical";
  // Refused with 405 on a demo site unless the actor is the super admin.
  demoBlocked?: boolean;
  maxBodyBytes?: number;
  // The human check (lib/http/human-check.ts): ?turnstile= verified first when it is on.
  humanCheck?: boolean;
};

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
type HandlerArgs<A extends Access, Q, B, P = undefined> = {
  ctx: A extends "public" ? Ctx : UserCtx;
  query: Infer<Q>;
  body: Infer<B>;
  params: P extends z.ZodType ? z.infer<P> : Record<string, string>;
  request: Request;
};

// What a handler may return: the data of a successful envelope, or a Reply for a message,
// extra headers (Set-Cookie) or a bare body.
export class Reply {
  // status: another HTTP status than 200 (the status page's data answers 404 while it is off)
  constructor(readonly init: { data?: unknown; message?: string; headers?: Record<string, string | string[]>; raw?: unknown; status?: number }) {}
}

// server.ts refuses bodies past the same limits while they arrive (lib/http/body-limit.ts).
const DEFAULT_MAX_BODY = CONSOLE_MAX_BODY_BYTES;

function cookie(headers: Headers, name: string) {
  return headers.get("cookie")?.match(new RegExp(`(?:^|;\\s*)${name}=([^;]*)`))?.[1];
}

export function contextOf(request: Request): Ctx {
  const headers = request.headers;
  const locale = pickLocale(cookie(headers, LOCALE_COOKIE), headers.get("accept-language"));
  return {
    locale,
    ip: clientIp(headers),
    https: isHttps(headers),
    requestId: consoleRequestId(headers),
    headers,
    t: (key, params) => renderMessage(locale, key, params),
  };
}

function respond(status: number, payload: unknown, headers?: Record<string, string | string[]>): Response {
  const h = new Headers({ "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  for (const [k, v] of Object.entries(headers ?? {})) {
    for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
  }
  return new Response(toJson(payload), { status, headers: h });
}

export function errorResponse(ctx: Ctx, err: unknown): Response {
  if (isAppError(err)) {
    return respond(consoleStatus[err.code], { success: false, message: ctx.t(err.key, err.params) });
  }
  log.error({ error: describeError(err) }, "unexpected error");
  return respond(500, { success: false, message: ctx.t("internal_error") });
}

// Parameters that fail their schema: HTTP 400 with the envelope, whose message names the
// parameter (or is the rule's own catalogue message). The console shows the message of a 400
// as it shows a business refusal's (docs/conventions.md).
function invalid(ctx: Ctx, error: z.ZodError): Response {
  return respond(400, { success: false, message: zodMessage(ctx, error) });
}

function zodMessage(ctx: Ctx, error: z.ZodError): string {
  const issue = error.issues[0];
  // A custom message that names a catalogue key is rendered in the caller's language.
  if (issue?.message && issue.message.startsWith("msg:")) return ctx.t(issue.message.slice(4) as MessageKey);
  const where = issue?.path.length ? issue.path.join(".") : "";
  return ctx.t("invalid_parameter_detail", { detail: where || issue?.message || "" });
}

async function readBody(request: Request, limit: number): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new AppError("PAYLOAD_TOO_LARGE", "body_too_large");
  const text = await request.text();
  if (Buffer.byteLength(text) > limit) throw new AppError("PAYLOAD_TOO_LARGE", "body_too_large");
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    // a "__proto__" key (written out or escaped) is refused: zod's records and plain objects
    // would drop it without a word (docs/conventions.md, "Own keys"); the reviver runs only
    // when the text could hold one
    parsed = text.includes("__proto__") || text.includes("\\u") ? JSON.parse(text, refuseProtoKey) : JSON.parse(text);
  } catch (e) {
    if (e === PROTO_KEY) throw new AppError("INVALID_INPUT", "body_key_reserved");
    throw new AppError("INVALID_INPUT", "invalid_parameter");
  }
  return parsed;
}

const PROTO_KEY = new Error("__proto__ key");
function refuseProtoKey(key: string, value: unknown): unknown {
  if (key === "__proto__") throw PROTO_KEY;
  return value;
}

// What the OpenAPI document reads from a handler (docs/api-reference.md): the very schemas it
// validates with, and who may call it.
export type RouteMeta = {
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  rateLimit?: "critical";
  demoBlocked?: boolean;
  humanCheck?: boolean;
  gate?: AdminRoute;
};

export type RouteHandler = ((request: Request, context?: { params?: Promise<Record<string, string>> }) => Promise<Response>) & { meta: RouteMeta };

export function route<
  A extends Access,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(
  options: Options<Q, B, P> & { access: A } & (A extends "admin" ? { gate: AdminRoute } : { gate?: undefined }),
  handler: (args: HandlerArgs<A, Q, B, P>) => Promise<unknown>,
): RouteHandler {
  // every admin route names its permission (tests/unit/http/route-permissions.test.ts too)
  const rule: RouteRule | null = options.gate ? ROUTE_PERMISSIONS[options.gate] : null;
  if (options.access === "admin" && !rule) throw new Error("an admin route needs its permission (gate)");
  const meta: RouteMeta = {
    access: options.access,
    params: options.params,
    query: options.query,
    body: options.body,
    rateLimit: options.rateLimit,
    demoBlocked: options.demoBlocked,
    humanCheck: options.humanCheck,
    gate: options.gate,
  };
  const serve = async (request: Request, context?: { params?: Promise<Record<string, string>> }): Promise<Response> => {
    const ctx = contextOf(request);
    // what the request's trace span learns here (docs/tracing.md): its parameters and its user
    let rawParams: unknown;
    let userId: number | undefined;
    try {
      await ensureReady();
      if (options.rateLimit === "critical") {
        const { CRITICAL_RATE_LIMIT, CRITICAL_RATE_LIMIT_WINDOW_SECONDS } = env();
        const allowed = await hit(`critical:${ctx.ip}`, CRITICAL_RATE_LIMIT, CRITICAL_RATE_LIMIT_WINDOW_SECONDS);
        if (!allowed) throw new AppError("RATE_LIMITED", "too_many_requests");
      }
      if (options.humanCheck) await requireHumanCheck(ctx, new URL(request.url).searchParams.get("turnstile"));
      let full: Ctx | UserCtx = ctx;
      if (options.access !== "public") {
        const user = await authenticate(request.headers);
        userId = user.id;
        if (options.access === "admin" && !isAdmin(user.role)) throw new AppError("FORBIDDEN", "permission_denied");
        // the admin's permission set is on the user row authenticate() read: no other read
        if (rule && !rule.anyOf.some((p) => hasPermission(user, p))) throw new AppError("FORBIDDEN", "permission_denied");
        if (options.access === "root" && !isRoot(user.role)) throw new AppError("FORBIDDEN", "permission_denied");
        full = Object.assign({}, ctx, { user });
      }
      if (options.demoBlocked && getBool("DemoSiteEnabled") && !("user" in full && isRoot(full.user.role))) {
        throw new AppError("DEMO_REFUSED", "demo_refused");
      }
      let params: unknown = (rawParams = (await context?.params) ?? {});
      if (options.params) {
        const parsed = options.params.safeParse(params);
        if (!parsed.success) return invalid(ctx, parsed.error);
        params = parsed.data;
      }
      const url = new URL(request.url);
      let query: unknown = undefined;
      if (options.query) {
        const parsed = options.query.safeParse(Object.fromEntries(url.searchParams));
        if (!parsed.success) return invalid(ctx, parsed.error);
        query = parsed.data;
      }
      let body: unknown = undefined;
      if (options.body) {
        const parsed = options.body.safeParse(await readBody(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY));
        if (!parsed.success) return invalid(ctx, parsed.error);
        body = parsed.data;
      }
      // a rule that depends on the input (an option's tab, an enable that is only an operation)
      if (rule?.byInput && "user" in full) {
        const needed = rule.byInput({ body, query });
        if (needed && !hasPermission(full.user, needed)) throw new AppError("FORBIDDEN", "permission_denied");
      }
      const result = await handler({ ctx: full, query, body, params, request } as HandlerArgs<A, Q, B, P>);
      if (result instanceof Response) return result;
      if (result instanceof Reply) {
        const { data, message, headers, raw, status } = result.init;
        if (raw !== undefined) return respond(status ?? 200, raw, headers);
        if (status && status >= 400) return respond(status, { success: false, message: message ?? "" }, headers);
        return respond(status ?? 200, { success: true, message: message ?? "", data: data ?? null }, headers);
      }
      return respond(200, { success: true, message: "", data: result ?? null });
    } catch (err) {
      return errorResponse(ctx, err);
    } finally {
      // tracing on (lib/tracing/console-bridge.ts): the span's route and user
      const note = consoleNote();
      if (note) note(request.headers.get(TRACE_SLOT_HEADER), new URL(request.url).pathname, rawParams ?? (await context?.params), userId);
    }
  };
  return Object.assign(serve, { meta });
}
