// PUT /api/redemption/batch-disable (admin): disables the given codes that are unused; answers
// how many changed (a used or already disabled code is left as it is).
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { assertAdmin, live } from "@/lib/redemptions/shared";
import { REDEMPTION_STATUS } from "@/lib/statuses";

export async function batchDisable({ ctx, input: ids }: { ctx: UserCtx; input: number[] }): Promise<number> {
  assertAdmin(ctx);
  if (!ids.length) throw new AppError("INVALID_INPUT", "redemption_select_first");
  const r = await db().redemption.updateMany({
    where: { id: { in: ids }, ...live, status: REDEMPTION_STATUS.unused },
    data: { status: REDEMPTION_STATUS.disabled },
  });
  return r.count;
}
