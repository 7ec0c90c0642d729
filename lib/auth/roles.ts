// Roles, statuses and the level rule (docs/product-rules.md, "Accounts").
export const ROLE = { user: 1, admin: 10, root: 100 } as const;

export const isAdmin = (role: number) => role >= ROLE.admin;
export const isRoot = (role: number) => role >= ROLE.root;

// An actor may read, update or delete another user only when strictly above that user's
// level; the super admin may act on everyone (its own protection is checked per action).
export function canManage(actorRole: number, targetRole: number): boolean {
  return isRoot(actorRole) || actorRole > targetRole;
}
