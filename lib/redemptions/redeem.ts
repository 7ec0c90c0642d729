// POST /api/user/topup: the caller redeems a code. Disabled, used, deleted and unknown codes
// are refused alike ("invalid or already used"); a code outside its validity window says so.
// The code's state, the use row, the credit (changeUserQuota, kind "redeem", ref = the code's
// id) and the type-1 log row are one transaction, and the state change is conditional:
//   - single-use: status 1 -> 3 only while it is 1, so one of two simultaneous redeemers wins;
//   - gift: used_count + 1 only while below max_uses (-1: no bound), and the unique
//     (redemption_id, user_id) use row lets each user redeem it once.
// A loser's transaction rolls back whole: nothing is credited (docs/redemptions.md).
import "server-only";
import { changeUserQuota } from "@/lib/billing/ledger";
import type { UserCtx } from "@/lib/ctx";
import { LOG_TYPE } from "@/lib/logs/writer";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { codeHash, live } from "@/lib/redemptions/shared";
import { redeemCodeRefusal, UNLIMITED_USES } from "@/lib/redemptions/field-rules";
import { isUniqueViolation, TX_OPTIONS } from "@/lib/users/db-errors";
import { createLogRow, transactionWithLogs } from "@/lib/logs/in-transaction";
import { logMessage } from "@/lib/logs/messages";
import { nowSeconds } from "@/lib/time";
import { REDEMPTION_STATUS } from "@/lib/statuses";

export async function redeem({ ctx, input }: { ctx: UserCtx; input: { key?: string } }): Promise<{ quota: number; is_gift: boolean }> {
  const refusal = redeemCodeRefusal(input.key);
  if (refusal) throw new AppError("INVALID_INPUT", refusal);
  const key = (input.key ?? "").trim();
  const code = await db().redemption.findFirst({ where: { key: codeHash(key), ...live } });
  if (!code || code.status !== REDEMPTION_STATUS.unused) throw new AppError("RULE", "redemption_invalid");
  const now = nowSeconds();
  if (code.valid_from > 0n && BigInt(now) < code.valid_from) throw new AppError("RULE", "redemption_not_yet_valid");
  if (code.valid_until > 0n && BigInt(now) >= code.valid_until) throw new AppError("RULE", "redemption_expired");
  if (code.is_gift && code.max_uses !== UNLIMITED_USES && code.used_count >= code.max_uses) throw new AppError("RULE", "redemption_invalid");
  const at = BigInt(now);
  try {
    await transactionWithLogs(async (tx) => {
      // Conditional on what was read: status, quota and window unchanged, and for a gift
      // code a use left; zero rows changed means another request got there first.
      const unchanged = {
        id: code.id,
        ...live,
        status: REDEMPTION_STATUS.unused,
        quota: code.quota,
        valid_from: code.valid_from,
        valid_until: code.valid_until,
      };
      const changed = code.is_gift
        ? await tx.redemption.updateMany({
            where:
              code.max_uses === UNLIMITED_USES
                ? Object.assign({ max_uses: UNLIMITED_USES }, unchanged)
                : Object.assign({ max_uses: code.max_uses, used_count: { lt: code.max_uses } }, unchanged),
            data: { used_count: { increment: 1 }, redeemed_time: at, used_user_id: ctx.user.id },
          })
        : await tx.redemption.updateMany({
            where: unchanged,
            data: { status: REDEMPTION_STATUS.used, used_count: 1, redeemed_time: at, used_user_id: ctx.user.id },
          });
      if (changed.count !== 1) throw new AppError("RULE", "redemption_invalid");
      await tx.redemptionUse.create({ data: { redemption_id: code.id, user_id: ctx.user.id, quota: code.quota, created_time: at } });
      await changeUserQuota(tx, { userId: ctx.user.id, delta: code.quota, kind: "redeem", ref: String(code.id) });
      await createLogRow(tx, {
        user_id: ctx.user.id,
        username: ctx.user.username,
        created_at: at,
        type: LOG_TYPE.topup,
        quota: code.quota,
        content: `redeemed ${code.is_gift ? "gift " : ""}code #${code.id}: +${code.quota}`,
        ip: ctx.ip,
        other: JSON.stringify({
          redemption_id: code.id,
          is_gift: code.is_gift,
          message: logMessage(code.is_gift ? "redeem_gift" : "redeem", { id: code.id, quota: code.quota }),
        }),
      });
    }, TX_OPTIONS);
  } catch (err) {
    // The use row is unique per (code, user): this user already redeemed this gift code.
    if (isUniqueViolation(err)) throw new AppError("RULE", code.is_gift ? "redemption_gift_already" : "redemption_invalid");
    throw err;
  }
  return { quota: Number(code.quota), is_gift: code.is_gift };
}
