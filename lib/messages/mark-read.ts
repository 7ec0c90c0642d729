// PUT /api/user/messages/{id}/read: the caller has opened the message. The first read time is
// kept (opening it again changes nothing); answers the read time.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { nowSeconds } from "@/lib/time";

export async function markRead({ ctx, input: id }: { ctx: UserCtx; input: number }) {
  const key = { message_id_user_id: { message_id: id, user_id: ctx.user.id } };
  await db().messageRecipient.updateMany({ where: { message_id: id, user_id: ctx.user.id, read_at: null }, data: { read_at: BigInt(nowSeconds()) } });
  const r = await db().messageRecipient.findUnique({ where: key, select: { read_at: true } });
  if (!r) throw new AppError("NOT_FOUND", "message_not_found");
  return { read_at: r.read_at };
}
