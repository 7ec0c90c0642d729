// GET /api/admin/messages/{id}/recipients?p&page_size (admin): who a message went to, in user
// id order, with the read time (null while unread). A deleted user keeps its row.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { assertAdmin, existingMessage, pageOf } from "@/lib/messages/shared";

export async function listRecipients({ ctx, input }: { ctx: UserCtx; input: { id: number; page: number; size: number } }) {
  assertAdmin(ctx);
  await existingMessage(input.id);
  const where = { message_id: input.id };
  const [rows, total] = await Promise.all([
    db().messageRecipient.findMany({ where, orderBy: { user_id: "asc" }, skip: (input.page - 1) * input.size, take: input.size }),
    db().messageRecipient.count({ where }),
  ]);
  const users = await db().user.findMany({ where: { id: { in: rows.map((r) => r.user_id) } }, select: { id: true, username: true, display_name: true } });
  const byId = new Map(users.map((u) => [u.id, u]));
  const items = rows.map((r) => ({
    user_id: r.user_id,
    username: byId.get(r.user_id)?.username ?? "",
    display_name: byId.get(r.user_id)?.display_name ?? "",
    read_at: r.read_at,
    is_read: r.read_at !== null,
  }));
  return pageOf(items, total, input.page, input.size);
}
