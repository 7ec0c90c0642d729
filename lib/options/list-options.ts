// Every option the caller may read, with its current value, for the settings page
// (lib/options/access.ts, docs/settings.md). Secret options are write-only (docs/secrets.md):
// the root sees them with the value "" and `set` telling whether one is saved, so the form
// can say "set" and leave the field empty (an empty field is not resent); an admin does not
// see them at all. `writable` tells the page which fields the caller may save.
import "server-only";
import { effectivePermissions } from "@/lib/auth/permissions";
import { canReadOption, canSeeSecretSet, canWriteOption } from "@/lib/options/access";
import { SECRET_OPTION_KEYS } from "@/lib/options/rules";
import { allOptions } from "@/lib/options/store";
import type { UserCtx } from "@/lib/ctx";

export interface ListedOption {
  key: string;
  value: string;
  /** secret options only: whether a value is saved */
  set?: boolean;
  /** whether the caller may save this option */
  writable: boolean;
}

export async function listOptions({ ctx }: { ctx: UserCtx }): Promise<ListedOption[]> {
  const role = ctx.user.role;
  const permissions = effectivePermissions(role, ctx.user.permissions);
  const out: ListedOption[] = [];
  for (const [key, value] of [...allOptions()].sort(([a], [b]) => a.localeCompare(b))) {
    const writable = canWriteOption(key, role, permissions);
    if (SECRET_OPTION_KEYS.has(key)) {
      if (canSeeSecretSet(role)) out.push({ key, value: "", set: value !== "", writable });
    } else if (canReadOption(key, role)) out.push({ key, value, writable });
  }
  return out;
}
