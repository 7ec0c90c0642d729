// POST /api/user/2fa/disable {code}: a TOTP code or a backup code turns TOTP off and forgets
// the secret and the backup codes. The code is the fresh second factor this action needs.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { currentSessionId, endUserSessions } from "@/lib/sessions/end";
import { spendSecondFactor } from "@/lib/twofa/factor";
import { recordAudit } from "@/lib/audit/record";

export async function disableTwoFactor({ ctx, input }: { ctx: UserCtx; input: { code: string } }): Promise<void> {
  await spendSecondFactor(ctx.user.id, input.code);
  const off = await db().twoFactor.deleteMany({ where: { user_id: ctx.user.id } });
  if (off.count > 0) await recordAudit(ctx, { action: "twofa_disable", target: { type: "user", id: ctx.user.id } });
  // the other sessions end; this one stays (docs/accounts-api.md, "Sessions")
  await endUserSessions(ctx.user.id, { ctx, actorId: ctx.user.id, reason: "twofa_changed", keep: await currentSessionId(ctx.headers) });
}
