// POST /api/user/2fa/enable {code}: the first code from the authenticator app turns TOTP on
// (the code's step is recorded, so it cannot be used again to sign in).
import "server-only";
import { open } from "@/lib/auth/secret-box";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { currentSessionId, endUserSessions } from "@/lib/sessions/end";
import { countAttempt, matchTotp } from "@/lib/twofa/factor";
import { recordAudit } from "@/lib/audit/record";

export async function enableTwoFactor({ ctx, input }: { ctx: UserCtx; input: { code: string } }): Promise<void> {
  await countAttempt(ctx.user.id);
  const record = await db().twoFactor.findUnique({ where: { user_id: ctx.user.id } });
  if (!record) throw new AppError("RULE", "twofa_setup_missing");
  if (record.enabled) throw new AppError("RULE", "twofa_already_enabled");
  const step = await matchTotp(open(record.secret), input.code.trim(), record.last_used_step);
  if (step === null) throw new AppError("RULE", "twofa_code_invalid");
  // Guarded by the secret that was checked: a concurrent new setup makes this one fail.
  const on = await db().twoFactor.updateMany({
    where: { user_id: ctx.user.id, enabled: false, secret: record.secret },
    data: { enabled: true, last_used_step: BigInt(step) },
  });
  if (on.count !== 1) throw new AppError("RULE", "twofa_code_invalid");
  await recordAudit(ctx, { action: "twofa_enable", target: { type: "user", id: ctx.user.id } });
  // the other sessions end; this one stays (docs/accounts-api.md, "Sessions")
  await endUserSessions(ctx.user.id, { ctx, actorId: ctx.user.id, reason: "twofa_changed", keep: await currentSessionId(ctx.headers) });
}
