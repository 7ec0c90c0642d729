// The one way an audit row is written (docs/audit.md): the verbs call recordAudit(ctx, ...)
// once their act has succeeded (or, for a refused sign-in, once it is refused). The client
// address, user agent and request id come from the request's ctx (lib/ctx.ts, built by
// lib/http/route.ts); the actor is the signed-in user unless the entry names one (a sign-in
// names the user it signs in; a refused one names nobody). Recording never makes the act
// fail: an insert that fails is an error line in the server log, and the act stands.
//
// What is never written (docs/audit.md): a password, a hash, a key of a token or a channel, a
// code (2FA, backup, redemption, mail), a session id or cookie, a secret option's value. The
// callers pass only names, ids and outcomes; secret options are written as "changed"
// (lib/audit/option-detail.ts).
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { describeError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { nowSeconds } from "@/lib/time";
import type { AuditAction, AuditTargetType } from "@/lib/audit/actions";
import { dict } from "@/lib/own-keys";

const log = logger("audit");

// column bounds: what a client sends (its user agent, its request id) or a caller passes is
// cut to these lengths, so that one row stays small
export const USER_AGENT_MAX = 512;
const IP_MAX = 64;
const NAME_MAX = 64;
const TARGET_ID_MAX = 128;
const REQUEST_ID_MAX = 128;
/** The longest a detail's JSON may be; a longer one is cut per value (lib/audit/option-detail.ts cuts option values first). */
export const DETAIL_MAX = 32_768;

/** A detail value: plain data only, never a secret (docs/audit.md, "What is never written"). */
export type AuditDetailValue = string | number | boolean | null | string[] | number[];
export type AuditDetail = Record<string, AuditDetailValue>;

export type AuditActor = { id: number; username: string };

export type AuditEntry = {
  action: AuditAction;
  /** who acted; default: the signed-in user of ctx, or nobody (id 0) */
  actor?: AuditActor | null;
  /** the account the event concerns; default: the target user, else the actor (0 for nobody) */
  userId?: number;
  target?: { type: AuditTargetType; id: string | number };
  detail?: AuditDetail;
};

const ANONYMOUS: AuditActor = { id: 0, username: "" };

function actorOf(ctx: Ctx, entry: AuditEntry): AuditActor {
  if (entry.actor !== undefined) return entry.actor ?? ANONYMOUS;
  const user = (ctx as Partial<{ user: AuditActor }>).user;
  return user ? { id: user.id, username: user.username } : ANONYMOUS;
}

function detailText(detail: AuditDetail | undefined): string {
  if (!detail) return "{}";
  const text = JSON.stringify(detail);
  if (text.length <= DETAIL_MAX) return text;
  // too long: every string value is cut to an equal share, and the row says so
  const keys = Object.keys(detail);
  const share = Math.max(64, Math.floor(DETAIL_MAX / Math.max(1, keys.length)) - 64);
  const cut: AuditDetail = dict();
  for (const k of keys) {
    const v = detail[k];
    cut[k] = typeof v === "string" && v.length > share ? v.slice(0, share) : v;
  }
  cut.truncated = true;
  return JSON.stringify(cut).slice(0, DETAIL_MAX * 2);
}

/** The row recordAudit writes, without its id and time (exported for the unit test). */
export function auditRow(ctx: Ctx, entry: AuditEntry) {
  const actor = actorOf(ctx, entry);
  const targetUser = entry.target?.type === "user" ? Number(entry.target.id) : undefined;
  return {
    actor_id: actor.id,
    actor_name: actor.username.slice(0, NAME_MAX),
    user_id: entry.userId ?? targetUser ?? actor.id,
    action: entry.action,
    target_type: entry.target?.type ?? "",
    target_id: entry.target ? String(entry.target.id).slice(0, TARGET_ID_MAX) : "",
    detail: detailText(entry.detail),
    ip: ctx.ip.slice(0, IP_MAX),
    user_agent: (ctx.headers.get("user-agent") ?? "").slice(0, USER_AGENT_MAX),
    request_id: ctx.requestId.slice(0, REQUEST_ID_MAX),
  };
}

/** Writes one audit row; never throws (a failed insert is logged and the act stands). */
export async function recordAudit(ctx: Ctx, entry: AuditEntry): Promise<void> {
  try {
    await db().auditLog.create({ data: Object.assign({ created_at: BigInt(nowSeconds()) }, auditRow(ctx, entry)) });
  } catch (err) {
    log.error({ action: entry.action, error: describeError(err) }, "audit row not written");
  }
}
