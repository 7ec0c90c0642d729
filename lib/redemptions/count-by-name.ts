// GET /api/redemption/count-by-name?name (admin): how many live codes are named exactly
// `name` (trimmed, not blank), whatever their status; the console shows it before deleting.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { assertAdmin, batchName, live } from "@/lib/redemptions/shared";

export async function countByName({ ctx, input }: { ctx: UserCtx; input: { name?: string } }): Promise<{ count: number }> {
  assertAdmin(ctx);
  return { count: await db().redemption.count({ where: { ...live, name: batchName(input.name) } }) };
}
