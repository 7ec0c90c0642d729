// A user may hold at most MAX_PENDING_PER_HOUR pending orders created in the last hour: a
// new payment beyond that is refused with topup_too_many_pending (docs/payments.md,
// "Limits"). Together with the "critical" rate limit of the pay calls, this keeps a script
// from filling the order table with pending rows.
import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { nowSeconds } from "@/lib/time";

export const MAX_PENDING_PER_HOUR = 10;

export async function checkPendingCap(userId: number): Promise<void> {
  const since = BigInt(nowSeconds() - 3600);
  const pending = await db().topUp.count({ where: { user_id: userId, status: "pending", create_time: { gte: since } } });
  if (pending >= MAX_PENDING_PER_HOUR) throw new AppError("RULE", "topup_too_many_pending", { max: MAX_PENDING_PER_HOUR });
}
