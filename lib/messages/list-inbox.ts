// GET /api/user/messages?p&page_size: the caller's messages, newest first, with its own read
// time and the number of users each was sent to (stats.total_recipients, docs/messages.md).
// Only messages addressed to the caller are ever read here.
import "server-only";
import type { Message, MessageRecipient } from "@/generated/sqlite/client";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { pageOf } from "@/lib/messages/shared";

export function inboxView(r: MessageRecipient & { message: Message }, totalRecipients: number) {
  return {
    id: r.message.id,
    title: r.message.title,
    content: r.message.content,
    format: r.message.format,
    created_at: r.message.created_at,
    read_at: r.read_at,
    is_read: r.read_at !== null,
    stats: { total_recipients: totalRecipients },
  };
}

// The recipient count of each message, in one grouped read.
export async function recipientCounts(messageIds: number[]): Promise<Map<number, number>> {
  if (!messageIds.length) return new Map();
  const rows = await db().messageRecipient.groupBy({ by: ["message_id"], where: { message_id: { in: messageIds } }, _count: { _all: true } });
  return new Map(rows.map((r) => [r.message_id, r._count._all]));
}

export async function listInbox({ ctx, input }: { ctx: UserCtx; input: { page: number; size: number } }) {
  const where = { user_id: ctx.user.id };
  const [rows, total] = await Promise.all([
    db().messageRecipient.findMany({
      where,
      orderBy: { message_id: "desc" },
      skip: (input.page - 1) * input.size,
      take: input.size,
      include: { message: true },
    }),
    db().messageRecipient.count({ where }),
  ]);
  const counts = await recipientCounts(rows.map((r) => r.message_id));
  return pageOf(
    rows.map((r) => inboxView(r, counts.get(r.message_id) ?? 0)),
    total,
    input.page,
    input.size,
  );
}
