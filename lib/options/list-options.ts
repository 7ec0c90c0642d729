// Every option with its current value for the settings pages, except the secret ones
// (write-only: the form leaves them empty and does not resend them).
import "server-only";
import { SECRET_OPTION_KEYS } from "@/lib/options/defaults";
import { allOptions } from "@/lib/options/store";
import type { UserCtx } from "@/lib/ctx";

export async function listOptions(_args: { ctx: UserCtx }): Promise<{ key: string; value: string }[]> {
  return [...allOptions()]
    .filter(([key]) => !SECRET_OPTION_KEYS.has(key))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => ({ key, value }));
}
