// Pure level rules for the admin calls (docs/product-rules.md, "Accounts"): who may act on whom, and what
// each manage action may do. Kept free of I/O so that they are unit-tested one by one.
import "server-only";
import { canManage, isAdmin, isRoot, ROLE } from "@/lib/auth/roles";
import type { MessageKey } from "@/lib/i18n/server-messages";
import { USER_STATUS } from "@/lib/statuses";

export type ManageAction = "promote" | "demote" | "disable" | "enable" | "delete";
type Target = { id: number; role: number; status: number; deleted_at: bigint | null };
type Actor = { id: number; role: number };

// The refusal for reading or updating target, or null when allowed.
export function accessRefusal(actor: Actor, target: Target): MessageKey | null {
  if (!canManage(actor.role, target.role)) return "cannot_manage_equal_or_higher";
  if (target.deleted_at !== null) return "user_deregistered";
  return null;
}

// The refusal for a manage action, or the new {role, status} / a soft delete.
export function planManage(actor: Actor, target: Target, action: ManageAction): { refuse: MessageKey } | { role: number; status: number; delete: boolean } {
  const refusal = accessRefusal(actor, target);
  if (refusal) return { refuse: refusal };
  switch (action) {
    case "promote":
      if (!isRoot(actor.role)) return { refuse: "cannot_promote_to_admin" };
      if (isAdmin(target.role)) return { refuse: "already_admin" };
      return { role: ROLE.admin, status: target.status, delete: false };
    case "demote":
      if (isRoot(target.role)) return { refuse: "cannot_demote_root" };
      if (!isAdmin(target.role)) return { refuse: "already_common" };
      return { role: ROLE.user, status: target.status, delete: false };
    case "disable":
      if (isRoot(target.role)) return { refuse: "cannot_disable_root" };
      return { role: target.role, status: USER_STATUS.banned, delete: false };
    case "enable":
      return { role: target.role, status: USER_STATUS.enabled, delete: false };
    case "delete":
      if (isRoot(target.role)) return { refuse: "cannot_delete_root" };
      return { role: target.role, status: target.status, delete: true };
  }
}

// A created user's role must be strictly below the creator's.
export const canCreateRole = (actorRole: number, role: number) => role < actorRole;
