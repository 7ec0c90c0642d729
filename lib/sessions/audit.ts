// The one place where ending sessions is recorded (docs/accounts-api.md, "Sessions"): a
// structured log line and the audit row (docs/audit.md): "logout" for a sign-out, else
// "session_revoke" with the reason and the number of sessions ended.
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { recordAudit, type AuditActor } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/logger";

const log = logger("sessions");

export type EndReason = "logout" | "revoked" | "others_revoked" | "admin" | "password_changed" | "password_reset" | "twofa_changed" | "banned" | "deleted";

export type SessionsEndedEvent = {
  ctx: Ctx;
  /** who ended them: the user, an admin, or null for an ending nobody signed in asked for (a password reset by mail) */
  actorId: number | null;
  userId: number;
  reason: EndReason;
  /** how many sessions ended */
  count: number;
};

// the actor's name: the signed-in caller's, else read (a sign-out is a public call)
async function actorOf(ctx: Ctx, actorId: number | null): Promise<AuditActor | null> {
  if (actorId === null) return null;
  const user = (ctx as Partial<{ user: AuditActor }>).user;
  if (user?.id === actorId) return { id: user.id, username: user.username };
  const row = await db().user.findUnique({ where: { id: actorId }, select: { username: true } });
  return { id: actorId, username: row?.username ?? "" };
}

export async function recordSessionsEnded(event: SessionsEndedEvent): Promise<void> {
  if (event.count === 0) return;
  log.info({ actor_id: event.actorId, user_id: event.userId, reason: event.reason, count: event.count, ip: event.ctx.ip }, "sessions ended");
  await recordAudit(event.ctx, {
    action: event.reason === "logout" ? "logout" : "session_revoke",
    actor: await actorOf(event.ctx, event.actorId).catch(() => null),
    userId: event.userId,
    target: { type: "user", id: event.userId },
    detail: event.reason === "logout" ? {} : { reason: event.reason, count: event.count },
  });
}
