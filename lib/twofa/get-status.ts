// GET /api/user/2fa/status: whether TOTP is on, the backup codes left, the passkeys, and
// until when a fresh second factor holds (0: none), so that the console asks for one only
// when it must.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { freshUntil } from "@/lib/twofa/cookies";
import { parseBackupList } from "@/lib/twofa/factor";

export type TwoFactorStatus = {
  enabled: boolean;
  pending: boolean;
  backup_codes_remaining: number;
  passkey_count: number;
  fresh_until: number;
};

export async function getTwoFactorStatus({ ctx }: { ctx: UserCtx }): Promise<TwoFactorStatus> {
  const [record, passkeys, fresh] = await Promise.all([
    db().twoFactor.findUnique({ where: { user_id: ctx.user.id } }),
    db().passkey.count({ where: { user_id: ctx.user.id } }),
    freshUntil(ctx.headers, ctx.user),
  ]);
  return {
    enabled: record?.enabled === true,
    pending: record !== null && !record.enabled,
    backup_codes_remaining: record?.enabled ? parseBackupList(record.backup_codes).length : 0,
    passkey_count: passkeys,
    fresh_until: fresh,
  };
}
