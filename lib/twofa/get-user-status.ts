// GET /api/user/{id}/2fa (admin): whether a user has TOTP on and how many passkeys, for the
// admin user editor; never the secret, codes or keys.
import "server-only";
import { canManage, isAdmin } from "@/lib/auth/roles";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

export async function getUserTwoFactor({ ctx, input }: { ctx: UserCtx; input: { id: number } }): Promise<{ enabled: boolean; passkey_count: number }> {
  if (!isAdmin(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
  const user = await db().user.findUnique({ where: { id: input.id }, select: { id: true, role: true } });
  if (!user) throw new AppError("NOT_FOUND", "user_not_found");
  // The same rule as the editor's own read (lib/users/get-user.ts): only users strictly below.
  if (!canManage(ctx.user.role, user.role)) throw new AppError("RULE", "cannot_manage_equal_or_higher");
  const [record, passkeys] = await Promise.all([
    db().twoFactor.findUnique({ where: { user_id: input.id }, select: { enabled: true } }),
    db().passkey.count({ where: { user_id: input.id } }),
  ]);
  return { enabled: record?.enabled === true, passkey_count: passkeys };
}
