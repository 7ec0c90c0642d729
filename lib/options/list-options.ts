// Every option with its current value for the settings pages. Secret options are write-only
// (docs/secrets.md): listed with the value "" and `set` telling whether one is saved, so the
// form can say "set" and leave the field empty (an empty field is not resent).
import "server-only";
import { SECRET_OPTION_KEYS } from "@/lib/options/defaults";
import { allOptions } from "@/lib/options/store";
import type { UserCtx } from "@/lib/ctx";

export interface ListedOption {
  key: string;
  value: string;
  /** secret options only: whether a value is saved */
  set?: boolean;
}

export async function listOptions(_args: { ctx: UserCtx }): Promise<ListedOption[]> {
  return [...allOptions()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]): ListedOption => (SECRET_OPTION_KEYS.has(key) ? { key, value: "", set: value !== "" } : { key, value }));
}
