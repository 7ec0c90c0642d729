// DELETE /api/redemption/delete-disabled (admin): deletes every disabled code; answers the count.
import "server-only";
import { nowSeconds } from "@/lib/billing/ledger";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { assertAdmin, live, REDEMPTION_STATUS } from "@/lib/redemptions/shared";

export async function deleteDisabled({ ctx }: { ctx: UserCtx }): Promise<number> {
  assertAdmin(ctx);
  const r = await db().redemption.updateMany({ where: { ...live, status: REDEMPTION_STATUS.disabled }, data: { deleted_at: BigInt(nowSeconds()) } });
  return r.count;
}
