// GET /api/redemption/search?keyword&p&page_size (admin): the keyword matches a code's id
// (when it is a number), a part of its name, or the whole code itself (compared by its hash,
// since codes are not stored readable).
import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import { db } from "@/lib/db/client";
import { containsText } from "@/lib/db/like";
import type { UserCtx } from "@/lib/ctx";
import { assertAdmin, codeHash, live, pageOf } from "@/lib/redemptions/shared";

export async function searchRedemptions({ ctx, input }: { ctx: UserCtx; input: { keyword?: string; page: number; size: number } }) {
  assertAdmin(ctx);
  const keyword = input.keyword?.trim() ?? "";
  const any: Prisma.RedemptionWhereInput[] = [];
  if (keyword) {
    any.push({ name: containsText(keyword) }, { key: codeHash(keyword) });
    if (/^\d{1,9}$/.test(keyword)) any.push({ id: Number(keyword) });
  }
  const where: Prisma.RedemptionWhereInput = any.length ? { AND: [live, { OR: any }] } : live;
  const [rows, total] = await Promise.all([
    db().redemption.findMany({ where, orderBy: { id: "desc" }, skip: (input.page - 1) * input.size, take: input.size }),
    db().redemption.count({ where }),
  ]);
  return pageOf(rows, total, input.page, input.size);
}
