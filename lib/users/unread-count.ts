// The inbox bell: how many messages addressed to the caller are unread.
import "server-only";
import { db } from "@/lib/db/client";
import type { UserCtx } from "@/lib/http/route";

export async function unreadCount({ ctx }: { ctx: UserCtx }) {
  return { unread_count: await db().messageRecipient.count({ where: { user_id: ctx.user.id, read_at: null } }) };
}
