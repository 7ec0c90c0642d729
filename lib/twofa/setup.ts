// POST /api/user/2fa/setup: a new TOTP secret and ten backup codes, shown this once; only the
// sealed secret and the codes' keyed hashes are stored. TOTP stays off until the first code
// is confirmed (enable); a new setup replaces an unconfirmed one.
import "server-only";
import { seal } from "@/lib/auth/secret-box";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getOption } from "@/lib/options/store";
import { hashBackupCode, newBackupCodes, newTotpSecret, totpEnabled, totpUri } from "@/lib/twofa/factor";
import { requireFreshFactor } from "@/lib/twofa/fresh";
import { nowSeconds } from "@/lib/time";

export async function setupTwoFactor({ ctx }: { ctx: UserCtx }): Promise<{ secret: string; qr_code_data: string; backup_codes: string[] }> {
  // A user with a passkey proves it first: a stolen session must not add a factor of its own.
  if (!(await totpEnabled(ctx.user.id))) await requireFreshFactor(ctx);
  const secret = newTotpSecret();
  const codes = newBackupCodes();
  const data = {
    secret: seal(secret),
    enabled: false,
    backup_codes: JSON.stringify(codes.map(hashBackupCode)),
    last_used_step: BigInt(0),
    created_at: BigInt(nowSeconds()),
  };
  // Only an unconfirmed record is replaced: a setup cannot silently turn off a working one.
  const replaced = await db().twoFactor.updateMany({ where: { user_id: ctx.user.id, enabled: false }, data });
  if (replaced.count === 0) {
    const existing = await db().twoFactor.findUnique({ where: { user_id: ctx.user.id }, select: { enabled: true } });
    if (existing) throw new AppError("RULE", "twofa_already_enabled");
    await db().twoFactor.create({ data: Object.assign({ user_id: ctx.user.id }, data) });
  }
  const issuer = getOption("SystemName").trim() || "AI Gateway";
  return { secret, qr_code_data: totpUri(issuer, ctx.user.username, secret), backup_codes: codes };
}
