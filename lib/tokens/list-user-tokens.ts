// GET /api/user/{id}/tokens: another user's API tokens, keys masked, for the root or an admin
// granted tokens:read (docs/permissions.md); only users strictly below the caller, as every
// admin read of a user (lib/auth/roles.ts, canManage). No route shows another user's full key.
import "server-only";
import { canManage } from "@/lib/auth/roles";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { liveTokensOf } from "@/lib/tokens/owned";
import { tokenView } from "@/lib/tokens/shared";

export async function listUserTokens({ ctx, input }: { ctx: UserCtx; input: { id: number; page: number; size: number } }) {
  const owner = await db().user.findUnique({ where: { id: input.id }, select: { role: true } });
  if (!owner) throw new AppError("NOT_FOUND", "user_not_found");
  if (!canManage(ctx.user.role, owner.role)) throw new AppError("RULE", "cannot_manage_equal_or_higher");
  const where = liveTokensOf(input.id);
  const [rows, total] = await Promise.all([
    db().token.findMany({ where, orderBy: { id: "desc" }, skip: (input.page - 1) * input.size, take: input.size }),
    db().token.count({ where }),
  ]);
  return { items: rows.map((t) => tokenView(t)), total, page: input.page, page_size: input.size };
}
