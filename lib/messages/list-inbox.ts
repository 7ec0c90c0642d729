// GET /api/user/messages?p&page_size: the caller's messages, newest first, with its own read
// time. Only messages addressed to the caller are ever read here.
import "server-only";
import type { Message, MessageRecipient } from "@/generated/sqlite/client";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { pageOf } from "@/lib/messages/shared";

export function inboxView(r: MessageRecipient & { message: Message }) {
  return {
    id: r.message.id,
    title: r.message.title,
    content: r.message.content,
    format: r.message.format,
    created_at: r.message.created_at,
    read_at: r.read_at,
    is_read: r.read_at !== null,
  };
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
  return pageOf(rows.map(inboxView), total, input.page, input.size);
}
