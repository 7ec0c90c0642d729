// The groups' descriptions a fresh install ships (UserUsableGroups' default, the spec's
// Chinese). The console shows a description still equal to the shipped one in the reader's
// language (common.groupDescriptions, docs/i18n.md); one the operator wrote stays as written.
export const SHIPPED_GROUP_DESCRIPTIONS = { default: "默认分组", vip: "vip分组" } as const;
