// DELETE /api/user/{id}/binding/{provider}: the root clears one of a user's third-party
// bindings (the admin editor shows them read-only; only the user can bind).
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { isRoot } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { BINDING_COLUMN, type Provider } from "@/lib/oauth/providers";

export async function clearBinding({ ctx, input }: { ctx: UserCtx; input: { id: number; provider: Provider } }): Promise<void> {
  if (!isRoot(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
  const { count } = await db().user.updateMany({ where: { id: input.id }, data: { [BINDING_COLUMN[input.provider]]: "" } });
  if (count === 0) throw new AppError("NOT_FOUND", "user_not_found");
}
