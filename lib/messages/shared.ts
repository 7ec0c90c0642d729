// Inbox messages (docs/messages.md): the admin check, the shapes answered, and the read of one
// message with its recipient counts.
import "server-only";
import type { Message } from "@/generated/sqlite/client";
import { isAdmin } from "@/lib/auth/roles";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

// route() lets only admins in; the verbs say so again.
export function assertAdmin(ctx: UserCtx): void {
  if (!isAdmin(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
}

export function pageOf<T>(items: T[], total: number, page: number, size: number) {
  return { items, total, page, page_size: size };
}

export type AdminMessageView = {
  id: number;
  title: string;
  content: string;
  format: string;
  created_by: number;
  created_at: bigint;
  updated_at: bigint;
  stats: { total_recipients: number; read_count?: number };
};

export function adminView(m: Message, totalRecipients: number, readCount?: number): AdminMessageView {
  const stats: AdminMessageView["stats"] = { total_recipients: totalRecipients };
  if (readCount !== undefined) stats.read_count = readCount;
  return {
    id: m.id,
    title: m.title,
    content: m.content,
    format: m.format,
    created_by: m.created_by,
    created_at: m.created_at,
    updated_at: m.updated_at,
    stats,
  };
}

export async function existingMessage(id: number): Promise<Message> {
  const m = await db().message.findUnique({ where: { id } });
  if (!m) throw new AppError("NOT_FOUND", "message_not_found");
  return m;
}
