// User groups and their ratios, read from the options cache (memory only).
import "server-only";
import { getJson } from "@/lib/options/store";
import { dict } from "@/lib/own-keys";

// Groups a user may put on a token or pick in the playground: UserUsableGroups (group ->
// description) plus the user's own group.
export function usableGroups(userGroup: string): Record<string, string> {
  const groups = dict(getJson<Record<string, string>>("UserUsableGroups", {}));
  if (userGroup && !Object.hasOwn(groups, userGroup)) groups[userGroup] = userGroup;
  return groups;
}

// Asked on every relay call: reads the cached option without copying it. Own keys only, so
// that a group named "constructor" or "toString" is not usable by way of the prototype.
export function canUseGroup(userGroup: string, group: string): boolean {
  return group === userGroup || Object.hasOwn(getJson<Record<string, string>>("UserUsableGroups", {}), group);
}

// GroupRatio of a group; a group without an entry costs ratio 1 (as new-api).
export function groupRatio(group: string): number {
  const ratios = getJson<Record<string, number>>("GroupRatio", {});
  const r = ratios[group];
  return typeof r === "number" && Number.isFinite(r) && r >= 0 ? r : 1;
}
