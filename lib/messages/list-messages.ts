// GET /api/admin/messages?p&page_size and GET /api/admin/messages/search?keyword&start_date&end_date
// (admin): messages newest first, each with its recipient count. The keyword matches a part
// of the title or the content; the dates bound the creation time (ISO, inclusive; a date
// without a time as end_date covers that whole day).
import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { containsText } from "@/lib/db/like";
import { adminView, assertAdmin, pageOf } from "@/lib/messages/shared";

export type MessageSearch = { keyword?: string; start_date?: string; end_date?: string; page: number; size: number };

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function seconds(iso: string, endOfDay: boolean): bigint {
  const ms = Date.parse(iso) + (endOfDay && DATE_ONLY.test(iso.trim()) ? 86_400_000 - 1 : 0);
  return BigInt(Math.floor(ms / 1000));
}

export async function listMessages({ ctx, input }: { ctx: UserCtx; input: MessageSearch }) {
  assertAdmin(ctx);
  const keyword = input.keyword?.trim() ?? "";
  const and: Prisma.MessageWhereInput[] = [];
  if (keyword) and.push({ OR: [{ title: containsText(keyword) }, { content: containsText(keyword) }] });
  const created: Prisma.BigIntFilter = {};
  if (input.start_date) created.gte = seconds(input.start_date, false);
  if (input.end_date) created.lte = seconds(input.end_date, true);
  if (created.gte !== undefined || created.lte !== undefined) and.push({ created_at: created });
  const where: Prisma.MessageWhereInput = and.length ? { AND: and } : {};
  const [rows, total] = await Promise.all([
    db().message.findMany({
      where,
      orderBy: { id: "desc" },
      skip: (input.page - 1) * input.size,
      take: input.size,
      include: { _count: { select: { recipients: true } } },
    }),
    db().message.count({ where }),
  ]);
  return pageOf(
    rows.map(({ _count, ...m }) => adminView(m, _count.recipients)),
    total,
    input.page,
    input.size,
  );
}
