// POST /api/user/{id}/sessions/revoke_all (docs/accounts-api.md, "Sessions"): an admin ends
// every session of a user, under the level rule of the other account calls.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { endUserSessions } from "@/lib/sessions/end";
import { accessRefusal } from "@/lib/users/rules";

/** POST /api/user/{id}/sessions/revoke_all (admin): ends every session of a user of a lower level. */
export async function endUserSessionsAsAdmin({ ctx, input }: { ctx: UserCtx; input: { id: number } }): Promise<{ ended: number }> {
  const target = await db().user.findUnique({ where: { id: input.id }, select: { id: true, role: true, status: true, deleted_at: true } });
  if (!target) throw new AppError("NOT_FOUND", "user_not_found");
  const refusal = accessRefusal(ctx.user, target);
  if (refusal) throw new AppError("RULE", refusal);
  return { ended: await endUserSessions(target.id, { ctx, actorId: ctx.user.id, reason: "admin" }) };
}
