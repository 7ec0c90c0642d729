// GET /api/user/messages/{id}: one of the caller's messages, for a detail page opened by its
// address. A message not addressed to the caller does not exist for it.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { inboxView, recipientCounts } from "@/lib/messages/list-inbox";

export async function getInboxMessage({ ctx, input: id }: { ctx: UserCtx; input: number }) {
  const r = await db().messageRecipient.findUnique({ where: { message_id_user_id: { message_id: id, user_id: ctx.user.id } }, include: { message: true } });
  if (!r) throw new AppError("NOT_FOUND", "message_not_found");
  const counts = await recipientCounts([id]);
  return inboxView(r, counts.get(id) ?? 0);
}
