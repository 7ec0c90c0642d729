// The read-only card an admin opens by clicking a username in the usage logs: any user,
// whatever their level (the logs already show every user's traffic to admins), but only
// the fields the card shows. The editor's full record (GET /api/user/{id}) keeps the level
// rule (docs/product-rules.md, "Accounts").
import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";

export async function getUserInfo({ input }: { ctx: UserCtx; input: { id: number } }) {
  const u = await db().user.findUnique({ where: { id: input.id } });
  if (!u) throw new AppError("NOT_FOUND", "user_not_found");
  return {
    id: u.id,
    username: u.username,
    display_name: u.display_name,
    role: u.role,
    status: u.status,
    group: u.group,
    quota: u.quota,
    used_quota: u.used_quota,
    request_count: u.request_count,
    DeletedAt: u.deleted_at,
  };
}
