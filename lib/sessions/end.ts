// Ending sessions for good (docs/accounts-api.md, "Sessions"): the rows are deleted, then
// every node forgets them (lib/sessions/store.ts), then the ending is recorded once
// (lib/sessions/audit.ts).
import "server-only";
import { sessionOf } from "@/lib/auth/session";
import type { Ctx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { recordSessionsEnded, type EndReason } from "@/lib/sessions/audit";
import { sessionsEnded, userSessionsEnded } from "@/lib/sessions/store";

/** The id of the caller's console session (null for a system access token or no session). */
export async function currentSessionId(headers: Headers): Promise<string | null> {
  return (await sessionOf(headers))?.sid ?? null;
}

type Actor = { ctx: Ctx; actorId: number | null; reason: EndReason };

/** Ends session sid of userId (nothing when it is not theirs); the number ended (0 or 1). */
export async function endSession(userId: number, sid: string, actor: Actor): Promise<number> {
  const { count } = await db().session.deleteMany({ where: { id: sid, user_id: userId } });
  if (count > 0) await sessionsEnded([sid]);
  await recordSessionsEnded({ ctx: actor.ctx, actorId: actor.actorId, userId, reason: actor.reason, count });
  return count;
}

/** Ends every session of userId but `keep` (the caller's own, when it stays signed in). */
export async function endUserSessions(userId: number, actor: Actor & { keep?: string | null }): Promise<number> {
  if (actor.keep) {
    const rows = await db().session.findMany({ where: { user_id: userId, id: { not: actor.keep } }, select: { id: true } });
    const ids = rows.map((r) => r.id);
    const { count } = ids.length ? await db().session.deleteMany({ where: { id: { in: ids }, user_id: userId } }) : { count: 0 };
    if (ids.length) await sessionsEnded(ids);
    await recordSessionsEnded({ ctx: actor.ctx, actorId: actor.actorId, userId, reason: actor.reason, count });
    return count;
  }
  const { count } = await db().session.deleteMany({ where: { user_id: userId } });
  await userSessionsEnded(userId);
  await recordSessionsEnded({ ctx: actor.ctx, actorId: actor.actorId, userId, reason: actor.reason, count });
  return count;
}
