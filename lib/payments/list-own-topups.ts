// GET /api/user/topup/self: the caller's top-up orders, newest first, paged as new-api pages
// them ({items, total, page, page_size}); the keyword matches the trade number.
import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { containsText } from "@/lib/db/like";
import { orderView, type Paging } from "@/lib/payments/order-view";

export async function listOwnTopUps({ ctx, input }: { ctx: UserCtx; input: Paging }) {
  const where: Prisma.TopUpWhereInput = { user_id: ctx.user.id };
  if (input.keyword) where.trade_no = containsText(input.keyword);
  const [rows, total] = await Promise.all([
    db().topUp.findMany({ where, orderBy: { id: "desc" }, skip: (input.page - 1) * input.size, take: input.size }),
    db().topUp.count({ where }),
  ]);
  return { items: rows.map(orderView), total, page: input.page, page_size: input.size };
}
