// User groups and their ratios, read from the options cache (memory only).
import { getJson } from "@/lib/options/store";

// Groups a user may put on a token or pick in the playground: UserUsableGroups (group ->
// description) plus the user's own group.
export function usableGroups(userGroup: string): Record<string, string> {
  const groups = { ...getJson<Record<string, string>>("UserUsableGroups", {}) };
  if (userGroup && !(userGroup in groups)) groups[userGroup] = userGroup;
  return groups;
}

export function canUseGroup(userGroup: string, group: string): boolean {
  return group === userGroup || group in usableGroups(userGroup);
}

// GroupRatio of a group; a group without an entry costs ratio 1 (as new-api).
export function groupRatio(group: string): number {
  const ratios = getJson<Record<string, number>>("GroupRatio", {});
  const r = ratios[group];
  return typeof r === "number" && Number.isFinite(r) && r >= 0 ? r : 1;
}
