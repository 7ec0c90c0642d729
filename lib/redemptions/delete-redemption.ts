// DELETE /api/redemption/{id}/ (admin): the code can no longer be redeemed or listed. The row
// stays (deleted_at), so that the ledger rows that name it keep their reference.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { assertAdmin, live, liveRedemption } from "@/lib/redemptions/shared";
import { nowSeconds } from "@/lib/time";

export async function deleteRedemption({ ctx, input: id }: { ctx: UserCtx; input: number }): Promise<void> {
  assertAdmin(ctx);
  await liveRedemption(id);
  await db().redemption.updateMany({ where: { id, ...live }, data: { deleted_at: BigInt(nowSeconds()) } });
}
