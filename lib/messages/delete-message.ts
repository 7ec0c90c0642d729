// DELETE /api/admin/messages/{id} (admin): the message and every recipient's record of it.
// The message row goes by deleteMany and its count, so that of two concurrent deletes the
// second answers "not found" (not a 500 from a delete of a missing row).
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { assertAdmin } from "@/lib/messages/shared";
import { TX_OPTIONS } from "@/lib/users/db-errors";

export async function deleteMessage({ ctx, input: id }: { ctx: UserCtx; input: number }) {
  assertAdmin(ctx);
  await db().$transaction(async (tx) => {
    await tx.messageRecipient.deleteMany({ where: { message_id: id } });
    const { count } = await tx.message.deleteMany({ where: { id } });
    if (count !== 1) throw new AppError("NOT_FOUND", "message_not_found");
  }, TX_OPTIONS);
  return null;
}
