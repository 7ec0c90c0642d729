// Admin user list and search, newest first. Deregistered users are listed too (their row
// shows DeletedAt). The list page is 0-based (p), the search page 1-based, as the console sends.
import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import { db } from "@/lib/db/client";
import type { UserCtx } from "@/lib/http/route";
import { presentUser } from "@/lib/users/present";
import { containsText } from "@/lib/db/like";

async function page(where: Prisma.UserWhereInput, pageIndex: number, pageSize: number) {
  const [rows, total] = await Promise.all([
    db().user.findMany({ where, orderBy: { id: "desc" }, skip: pageIndex * pageSize, take: pageSize }),
    db().user.count({ where }),
  ]);
  // the active plan of each user on the page (docs/plans.md): one query for the whole page
  const subs = rows.length
    ? await db().subscription.findMany({
        where: { user_id: { in: rows.map((r) => r.id) }, status: "active" },
        select: { user_id: true, plan_name: true },
        orderBy: { ends_at: "desc" },
      })
    : [];
  const plans = new Map<number, string>();
  for (const s of subs) if (!plans.has(s.user_id)) plans.set(s.user_id, s.plan_name);
  return { items: rows.map((r) => ({ ...presentUser(r), plan: plans.get(r.id) ?? "" })), total };
}

export async function listUsers({ input }: { ctx: UserCtx; input: { p?: number; page_size: number } }) {
  const p = input.p ?? 0;
  const { items, total } = await page({}, p, input.page_size);
  return { items, page: p, page_size: input.page_size, total };
}

// keyword: an exact id, or a substring of username, display name or e-mail.
export function searchWhere(keyword: string, group: string): Prisma.UserWhereInput {
  const and: Prisma.UserWhereInput[] = [];
  if (keyword) {
    const or: Prisma.UserWhereInput[] = [{ username: containsText(keyword) }, { display_name: containsText(keyword) }, { email: containsText(keyword) }];
    if (/^\d{1,9}$/.test(keyword)) or.unshift({ id: Number(keyword) });
    and.push({ OR: or });
  }
  if (group) and.push({ group });
  return and.length ? { AND: and } : {};
}

export async function searchUsers({ input }: { ctx: UserCtx; input: { keyword: string; group: string; p?: number; page_size: number } }) {
  const p = Math.max(1, input.p ?? 1);
  const { items, total } = await page(searchWhere(input.keyword, input.group), p - 1, input.page_size);
  return { items, page: p, page_size: input.page_size, total };
}
