// GET /api/user/topup (root): every top-up order, newest first, with the owner's username;
// the keyword matches the trade number (substring), the user id, or the username (substring).
import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { containsText } from "@/lib/db/like";
import { orderView, type Paging } from "@/lib/payments/order-view";

export async function listAllTopUps({ input }: { ctx: UserCtx; input: Paging }) {
  const where: Prisma.TopUpWhereInput = {};
  const keyword = input.keyword?.trim();
  if (keyword) {
    const users = await db().user.findMany({ where: { username: containsText(keyword) }, select: { id: true }, take: 1000 });
    const ids = users.map((u) => u.id);
    if (/^\d{1,9}$/.test(keyword)) ids.push(Number(keyword));
    where.OR = [{ trade_no: containsText(keyword) }, { user_id: { in: ids } }];
  }
  const [rows, total] = await Promise.all([
    db().topUp.findMany({ where, orderBy: { id: "desc" }, skip: (input.page - 1) * input.size, take: input.size }),
    db().topUp.count({ where }),
  ]);
  const owners = await db().user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.user_id))] } }, select: { id: true, username: true } });
  const names = new Map(owners.map((u) => [u.id, u.username]));
  return {
    items: rows.map((r) =>
      Object.assign(orderView(r), {
        username: names.get(r.user_id) ?? "",
        rebate_quota: r.rebate_quota,
        provider_ref: r.provider_ref,
        paid_money: r.paid_money,
      }),
    ),
    total,
    page: input.page,
    page_size: input.size,
  };
}
