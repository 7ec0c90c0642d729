// DELETE /api/redemption/delete-disabled (admin): deletes every disabled code; answers the count.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { assertAdmin, live } from "@/lib/redemptions/shared";
import { nowSeconds } from "@/lib/time";
import { REDEMPTION_STATUS } from "@/lib/statuses";

export async function deleteDisabled({ ctx }: { ctx: UserCtx }): Promise<number> {
  assertAdmin(ctx);
  const r = await db().redemption.updateMany({ where: { ...live, status: REDEMPTION_STATUS.disabled }, data: { deleted_at: BigInt(nowSeconds()) } });
  return r.count;
}
