// Who may read and write which option (docs/settings.md, "Roles"), from each key's entry in
// lib/options/registry.ts. Pure and free of "server-only": the server enforces it (GET and
// PUT /api/option/) and the settings page disables what the caller cannot save.
// - The root (role 100) reads every option (secrets only as "set / not set") and writes all.
// - An admin (role 10) reads every option except the secrets and writes the entries marked
//   `write: "admin"` (quota, pricing, display, logs, monitoring, rate limit, check-in,
//   content, models); sign-in, payment, mail, network and security, modes, and the custom
//   code injected into every console page are `write: "root"`.
// - Nobody reads a secret's value.
// - An admin's permission set (docs/permissions.md) narrows the writes to the tabs it holds
//   (`settings:<tab>`); it never opens a `write: "root"` entry.
import { ROLE } from "@/lib/auth/roles";
import { optionSpec, type OptionKey } from "@/lib/options/registry";

const isRootRole = (role: number) => role >= ROLE.root;

/** Whether a caller of this role may read the option's value (secrets: nobody). */
export function canReadOption(key: OptionKey, role: number): boolean {
  if (optionSpec(key).secret) return false;
  return role >= ROLE.admin;
}

/** Whether a caller of this role may see that a secret is set (the root). */
export function canSeeSecretSet(role: number): boolean {
  return isRootRole(role);
}

/**
 * Whether a caller of this role may save the option. An admin also needs the permission of
 * the option's tab, `settings:<tab>` (docs/permissions.md), when `permissions` (their
 * effective set) is given; a set never lifts a root-only key.
 */
export function canWriteOption(key: OptionKey, role: number, permissions?: readonly string[]): boolean {
  if (isRootRole(role)) return true;
  if (role < ROLE.admin) return false;
  const spec = optionSpec(key);
  if (permissions && !permissions.includes(`settings:${spec.tab}`)) return false;
  return spec.write === "admin";
}
