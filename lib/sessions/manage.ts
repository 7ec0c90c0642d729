// The session verbs of the console (docs/accounts-api.md, "Sessions"): a user lists and ends
// their own sessions; an admin ends all of a user's under the level rule of the account calls
// (lib/users/rules.ts).
import "server-only";
import type { Ctx, UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { currentSessionId, endSession, endUserSessions } from "@/lib/sessions/end";
import { deviceLabel } from "@/lib/sessions/device";
import { sessionOf } from "@/lib/auth/session";
import { nowSeconds } from "@/lib/time";

export type SessionView = {
  id: string;
  device: string;
  user_agent: string;
  ip: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  current: boolean;
};

/** GET /api/user/sessions: the caller's live sessions, the most recently seen first. */
export async function listSessions({ ctx }: { ctx: UserCtx }): Promise<SessionView[]> {
  const current = await currentSessionId(ctx.headers);
  const rows = await db().session.findMany({
    where: { user_id: ctx.user.id, expires_at: { gt: BigInt(nowSeconds()) } },
    orderBy: [{ last_seen_at: "desc" }, { created_at: "desc" }],
    take: 200,
  });
  return rows.map((r) => ({
    id: r.id,
    device: deviceLabel(r.user_agent),
    user_agent: r.user_agent,
    ip: r.ip,
    created_at: Number(r.created_at),
    last_seen_at: Number(r.last_seen_at),
    expires_at: Number(r.expires_at),
    current: r.id === current,
  }));
}

/** DELETE /api/user/sessions/{id}: ends one of the caller's sessions (their current one too). */
export async function endOwnSession({ ctx, input }: { ctx: UserCtx; input: { id: string } }): Promise<{ current: boolean }> {
  const ended = await endSession(ctx.user.id, input.id, { ctx, actorId: ctx.user.id, reason: "revoked" });
  if (ended === 0) throw new AppError("NOT_FOUND", "session_not_found");
  return { current: input.id === (await currentSessionId(ctx.headers)) };
}

/** POST /api/user/sessions/revoke_all: ends every session of the caller but the current one. */
export async function endOtherSessions({ ctx }: { ctx: UserCtx }): Promise<{ ended: number }> {
  const keep = await currentSessionId(ctx.headers);
  return { ended: await endUserSessions(ctx.user.id, { ctx, actorId: ctx.user.id, reason: "others_revoked", keep }) };
}

/** GET /api/user/logout: the session of the cookie ends for good (whoever's it is, if its seal is good). */
export async function logout({ ctx }: { ctx: Ctx }): Promise<void> {
  const session = await sessionOf(ctx.headers);
  if (session) await endSession(session.uid, session.sid, { ctx, actorId: session.uid, reason: "logout" });
}
