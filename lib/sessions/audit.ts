// The one place where ending sessions is recorded (docs/accounts-api.md, "Sessions"): today a
// structured log line; the audit log writes its "session revocation" row from here.
import "server-only";
import { logger } from "@/lib/logger";

const log = logger("sessions");

export type EndReason = "logout" | "revoked" | "others_revoked" | "admin" | "password_changed" | "password_reset" | "twofa_changed" | "banned" | "deleted";

export type SessionsEndedEvent = {
  /** who ended them: the user, an admin, or null for a sign-out without a live session */
  actorId: number | null;
  userId: number;
  reason: EndReason;
  /** how many sessions ended */
  count: number;
  ip: string;
};

export function recordSessionsEnded(event: SessionsEndedEvent): void {
  if (event.count === 0) return;
  log.info({ actor_id: event.actorId, user_id: event.userId, reason: event.reason, count: event.count, ip: event.ip }, "sessions ended");
}
