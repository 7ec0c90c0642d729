// The session user as the console's pages see it (server side): the same few fields the
// browser keeps in localStorage under "user".
import "server-only";
import { headers } from "next/headers";
import { effectivePermissions, type Permission } from "@/lib/auth/permissions";
import { optionalSessionUser } from "@/lib/http/auth";

// permissions: the effective admin permission set (docs/permissions.md), for hiding what the
// admin cannot do
export type ShellUser = { id: number; username: string; display_name: string; role: number; group: string; permissions: readonly Permission[] };

export async function shellUser(): Promise<ShellUser | null> {
  const user = await optionalSessionUser(await headers());
  if (!user) return null;
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    role: user.role,
    group: user.group,
    permissions: effectivePermissions(user.role, user.permissions),
  };
}
