// Groups: the ones a user may choose (UserUsableGroups, with their GroupRatio) plus the
// user's own group; and, for admins, every group that has a ratio.
import "server-only";
import type { UserCtx } from "@/lib/http/route";
import { getJson } from "@/lib/options/store";
import { dict } from "@/lib/own-keys";

const record = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

export function userGroupMap(ownGroup: string): Record<string, { desc: string; ratio: number }> {
  const usable = record(getJson<unknown>("UserUsableGroups", {}));
  const ratios = record(getJson<unknown>("GroupRatio", {}));
  const ratioOf = (g: string) => (typeof ratios[g] === "number" ? (ratios[g] as number) : 1);
  const out = dict<{ desc: string; ratio: number }>();
  for (const [g, desc] of Object.entries(usable)) out[g] = { desc: typeof desc === "string" ? desc : g, ratio: ratioOf(g) };
  if (ownGroup && !out[ownGroup]) out[ownGroup] = { desc: ownGroup, ratio: ratioOf(ownGroup) };
  return out;
}

export async function listSelfGroups({ ctx }: { ctx: UserCtx }) {
  return userGroupMap(ctx.user.group);
}

export async function listGroupNames(_args: { ctx: UserCtx }): Promise<string[]> {
  return Object.keys(record(getJson<unknown>("GroupRatio", {})));
}
