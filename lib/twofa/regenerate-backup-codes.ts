// POST /api/user/2fa/backup_codes {code}: ten new backup codes (shown once) replace the old
// ones, after a TOTP code or one of the old backup codes.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { hashBackupCode, newBackupCodes, spendSecondFactor } from "@/lib/twofa/factor";
import { recordAudit } from "@/lib/audit/record";

export async function regenerateBackupCodes({ ctx, input }: { ctx: UserCtx; input: { code: string } }): Promise<{ backup_codes: string[] }> {
  await spendSecondFactor(ctx.user.id, input.code);
  const codes = newBackupCodes();
  const done = await db().twoFactor.updateMany({
    where: { user_id: ctx.user.id, enabled: true },
    data: { backup_codes: JSON.stringify(codes.map(hashBackupCode)) },
  });
  if (done.count !== 1) throw new AppError("RULE", "twofa_not_enabled");
  await recordAudit(ctx, { action: "twofa_backup_codes", target: { type: "user", id: ctx.user.id } });
  return { backup_codes: codes };
}
