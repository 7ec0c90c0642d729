// PUT /api/user/{id}/permissions (root): replace an admin's permission set (docs/permissions.md).
// Only an admin (role 10) has a set: the root holds every permission and a user none, so a
// PUT on either is refused (permissions_admin_only). The set exactly equal to the default is
// stored as null (the admin then follows the default set of later versions). route() reads
// the column with the user on every request, so the change holds at once on every node.
// A change is an audit row (permission_change) with the old and new sets.
import "server-only";
import { effectivePermissions, storedPermissions, type Permission } from "@/lib/auth/permissions";
import { ROLE } from "@/lib/auth/roles";
import { recordAudit } from "@/lib/audit/record";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

export async function setUserPermissions({ ctx, input }: { ctx: UserCtx; input: { id: number; permissions: Permission[] } }) {
  const user = await db().user.findUnique({ where: { id: input.id }, select: { id: true, username: true, role: true, permissions: true, deleted_at: true } });
  if (!user || user.deleted_at !== null) throw new AppError("NOT_FOUND", "user_not_found");
  if (user.role !== ROLE.admin) throw new AppError("RULE", "permissions_admin_only");
  const stored = storedPermissions(input.permissions);
  const before = effectivePermissions(user.role, user.permissions);
  const after = effectivePermissions(user.role, stored);
  if (stored !== user.permissions) {
    // conditional on the role, so that a demotion in between does not get a set
    const changed = await db().user.updateMany({ where: { id: user.id, role: ROLE.admin, deleted_at: null }, data: { permissions: stored } });
    if (changed.count !== 1) throw new AppError("RULE", "user_changed_concurrently");
    if (before.join(",") !== after.join(",") || (stored === null) !== (user.permissions === null)) {
      await recordAudit(ctx, {
        action: "permission_change",
        target: { type: "user", id: user.id },
        detail: { username: user.username, from: [...before], to: [...after], default: stored === null },
      });
    }
  }
  return { id: user.id, role: user.role, permissions: after, is_default: stored === null };
}
