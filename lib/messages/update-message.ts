// PUT /api/admin/messages/{id} (admin): new title, format and content. The recipients and
// their read times stay as they are.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { messageContentRefusal, messageTitleRefusal } from "@/lib/messages/field-rules";
import type { UpdateMessageInput } from "@/lib/messages/schemas";
import { assertAdmin, existingMessage } from "@/lib/messages/shared";
import { nowSeconds } from "@/lib/time";

export async function updateMessage({ ctx, input }: { ctx: UserCtx; input: { id: number; fields: UpdateMessageInput } }) {
  assertAdmin(ctx);
  const title = input.fields.title.trim();
  const content = input.fields.content.trim();
  const refusal = messageTitleRefusal(title) ?? messageContentRefusal(content);
  if (refusal) throw new AppError("INVALID_INPUT", refusal);
  const m = await existingMessage(input.id);
  await db().message.update({
    where: { id: input.id },
    data: { title, content, format: input.fields.format ?? m.format, updated_at: BigInt(nowSeconds()) },
  });
  return null;
}
