// DELETE /api/user/{id}/2fa (root): turns a user's TOTP off and removes their passkeys, for a
// user who lost their authenticator (docs/two-factor.md, "Reset by the root").
import "server-only";
import { isRoot } from "@/lib/auth/roles";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { endUserSessions } from "@/lib/sessions/end";
import { recordAudit } from "@/lib/audit/record";

export async function resetUserTwoFactor({ ctx, input }: { ctx: UserCtx; input: { id: number } }): Promise<void> {
  // The role first, so that a non-root caller cannot learn which ids exist.
  if (!isRoot(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
  const user = await db().user.findUnique({ where: { id: input.id }, select: { id: true, username: true } });
  if (!user) throw new AppError("NOT_FOUND", "user_not_found");
  const [totp, passkeys] = await db().$transaction([
    db().twoFactor.deleteMany({ where: { user_id: input.id } }),
    db().passkey.deleteMany({ where: { user_id: input.id } }),
  ]);
  await recordAudit(ctx, {
    action: "twofa_reset",
    target: { type: "user", id: user.id },
    detail: { username: user.username, totp_removed: totp.count > 0, passkeys_removed: passkeys.count },
  });
  // every session of the user ends (docs/accounts-api.md, "Sessions")
  await endUserSessions(input.id, { ctx, actorId: ctx.user.id, reason: "twofa_changed" });
}
