// GET /api/redemption/?p&page_size: every live code, newest first (admin).
import "server-only";
import { db } from "@/lib/db/client";
import type { UserCtx } from "@/lib/ctx";
import { assertAdmin, live, pageOf } from "@/lib/redemptions/shared";

export async function listRedemptions({ ctx, input: { page, size } }: { ctx: UserCtx; input: { page: number; size: number } }) {
  assertAdmin(ctx);
  const [rows, total] = await Promise.all([
    db().redemption.findMany({ where: live, orderBy: { id: "desc" }, skip: (page - 1) * size, take: size }),
    db().redemption.count({ where: live }),
  ]);
  return pageOf(rows, total, page, size);
}
