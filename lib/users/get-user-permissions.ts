// GET /api/user/{id}/permissions (root): a user's effective permission set (docs/permissions.md):
// every permission for the root, the stored or default set for an admin, none for a user.
import "server-only";
import { effectivePermissions } from "@/lib/auth/permissions";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

export async function getUserPermissions({ input }: { ctx: UserCtx; input: { id: number } }) {
  const user = await db().user.findUnique({ where: { id: input.id }, select: { id: true, role: true, permissions: true, deleted_at: true } });
  if (!user || user.deleted_at !== null) throw new AppError("NOT_FOUND", "user_not_found");
  return { id: user.id, role: user.role, permissions: effectivePermissions(user.role, user.permissions), is_default: user.permissions === null };
}
