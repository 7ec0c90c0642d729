// DELETE /api/redemption/delete-by-name?name (admin): deletes the live codes named exactly
// `name` (the set count-by-name counted); answers how many went.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { assertAdmin, batchName, live } from "@/lib/redemptions/shared";
import { nowSeconds } from "@/lib/time";

export async function deleteByName({ ctx, input }: { ctx: UserCtx; input: { name?: string } }): Promise<{ count: number }> {
  assertAdmin(ctx);
  const r = await db().redemption.updateMany({ where: { ...live, name: batchName(input.name) }, data: { deleted_at: BigInt(nowSeconds()) } });
  return { count: r.count };
}
