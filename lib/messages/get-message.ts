// GET /api/admin/messages/{id} (admin): one message with its recipient and read counts.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { adminView, assertAdmin, existingMessage } from "@/lib/messages/shared";

export async function getMessage({ ctx, input: id }: { ctx: UserCtx; input: number }) {
  assertAdmin(ctx);
  const m = await existingMessage(id);
  const [total, read] = await Promise.all([
    db().messageRecipient.count({ where: { message_id: id } }),
    db().messageRecipient.count({ where: { message_id: id, read_at: { not: null } } }),
  ]);
  return adminView(m, total, read);
}
