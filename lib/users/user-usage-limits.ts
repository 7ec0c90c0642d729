// GET /api/usage/limits?user_id= (docs/api-reference.md, "Usage limits"): an admin's look at
// what a user uses of the user's limits (the user editor's meters, docs/console-ui.md
// "Limits"). Only for users the admin may manage (the editor's rule, lib/users/get-user.ts).
import "server-only";
import { canManage, isAdmin } from "@/lib/auth/roles";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { limitArray } from "@/lib/limits/engine";
import { listUsageLimits } from "@/lib/limits/usage";

export async function userUsageLimits({ ctx, input }: { ctx: UserCtx; input: { userId: number } }) {
  if (!isAdmin(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
  const user = await db().user.findUnique({ where: { id: input.userId } });
  if (!user) throw new AppError("NOT_FOUND", "user_not_found");
  if (user.id !== ctx.user.id && !canManage(ctx.user.role, user.role)) throw new AppError("RULE", "cannot_manage_equal_or_higher");
  const caller = { userId: user.id, group: user.group, userLimits: limitArray(user), token: null };
  return listUsageLimits({ ctx, input: { caller } });
}
