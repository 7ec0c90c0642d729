// The top-up orders: a user's own (GET /api/user/topup/self) and, for the root, everyone's
// (GET /api/user/topup), newest first, paged as new-api pages them ({items, total, page,
// page_size}). The root searches by trade number (substring), user id or username.
import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { containsText } from "@/lib/db/like";

type Paging = { page: number; size: number; keyword?: string };
type Order = Awaited<ReturnType<ReturnType<typeof db>["topUp"]["findMany"]>>[number];

export function orderView(o: Order) {
  return {
    id: o.id,
    user_id: o.user_id,
    amount: o.amount,
    money: o.money,
    currency: o.currency,
    trade_no: o.trade_no,
    payment_method: o.payment_method,
    provider: o.provider,
    status: o.status,
    create_time: o.create_time,
    complete_time: o.complete_time,
    completed_by: o.completed_by,
  };
}

export async function listOwnTopUps({ ctx, input }: { ctx: UserCtx; input: Paging }) {
  const where: Prisma.TopUpWhereInput = { user_id: ctx.user.id };
  if (input.keyword) where.trade_no = containsText(input.keyword);
  const [rows, total] = await Promise.all([
    db().topUp.findMany({ where, orderBy: { id: "desc" }, skip: (input.page - 1) * input.size, take: input.size }),
    db().topUp.count({ where }),
  ]);
  return { items: rows.map(orderView), total, page: input.page, page_size: input.size };
}

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
    items: rows.map((r) => Object.assign(orderView(r), { username: names.get(r.user_id) ?? "", rebate_quota: r.rebate_quota, provider_ref: r.provider_ref })),
    total,
    page: input.page,
    page_size: input.size,
  };
}
