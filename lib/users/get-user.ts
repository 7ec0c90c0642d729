// One user for the admin editor; only users strictly below the actor (the root: anyone).
import "server-only";
import { canManage } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/http/route";
import { presentUser } from "@/lib/users/present";

export async function getUser({ ctx, input }: { ctx: UserCtx; input: { id: number } }) {
  const user = await db().user.findUnique({ where: { id: input.id } });
  if (!user) throw new AppError("NOT_FOUND", "user_not_found");
  if (!canManage(ctx.user.role, user.role)) throw new AppError("RULE", "cannot_manage_equal_or_higher");
  return presentUser(user);
}
