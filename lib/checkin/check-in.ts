// Daily check-in: once per server-local calendar day, a random reward between CheckInQuota
// and CheckInMaxQuota. The check-in row, the credit (through the ledger) and the log row
// are one transaction; the unique (user_id, day) index makes concurrent attempts credit
// exactly once: the losers fail on the index and roll back.
import "server-only";
import { randomInt } from "node:crypto";
import { changeUserQuota } from "@/lib/billing/ledger";
import { localDay, rewardBounds } from "@/lib/checkin/day";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/http/route";
import { getBool, getNumber } from "@/lib/options/store";
import { isUniqueViolation, TX_OPTIONS } from "@/lib/users/db-errors";
import { createLogRow, transactionWithLogs } from "@/lib/logs/in-transaction";
import { logMessage } from "@/lib/logs/messages";
import { nowSeconds } from "@/lib/time";

export const LOG_TYPE_CHECK_IN = 5;

export async function checkIn({ ctx }: { ctx: UserCtx }): Promise<{ quota: number }> {
  if (!getBool("CheckInEnabled")) throw new AppError("RULE", "check_in_disabled");
  const day = localDay();
  const [min, max] = rewardBounds(getNumber("CheckInQuota", 0), getNumber("CheckInMaxQuota", 0));
  const quota = min === max ? min : randomInt(min, max + 1);
  const now = BigInt(nowSeconds());
  try {
    await transactionWithLogs(async (tx) => {
      await tx.checkIn.create({ data: { user_id: ctx.user.id, day, quota: BigInt(quota), created_time: now } });
      if (quota > 0) await changeUserQuota(tx, { userId: ctx.user.id, delta: BigInt(quota), kind: "check_in", ref: day });
      await createLogRow(tx, {
        user_id: ctx.user.id,
        username: ctx.user.username,
        created_at: now,
        type: LOG_TYPE_CHECK_IN,
        quota: BigInt(quota),
        content: `check-in ${day}: +${quota}`,
        ip: ctx.ip,
        other: JSON.stringify({ message: logMessage("check_in", { day, quota }) }),
      });
    }, TX_OPTIONS);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("RULE", "check_in_already");
    throw err;
  }
  return { quota };
}
