// An admin saves one option: the key is registered (lib/options/registry.ts; an inherited
// name such as "constructor" is not), the role may write it (lib/options/access.ts), the
// value is validated (lib/options/validate.ts), then written and propagated to the cache
// (and other nodes). A change is an audit row (docs/audit.md): the key with its old and new
// values, a secret's written as "changed".
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { recordAudit, type AuditDetail } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { canWriteOption } from "@/lib/options/access";
import { isOptionKey, optionSpec, type OptionKey } from "@/lib/options/registry";
import { getOption, setOption } from "@/lib/options/store";
import { validateOption } from "@/lib/options/validate";

// an option value longer than this (a price table) is cut in its audit row, which says so
export const AUDIT_VALUE_MAX = 8_000;

/** The audit detail of an option change: never a secret's value (docs/audit.md, "What is never written"). */
export function optionChangeDetail(key: OptionKey, before: string, after: string): AuditDetail {
  if (optionSpec(key).secret) return { key, old: "changed", new: "changed", secret: true };
  const detail: AuditDetail = { key, old: before.slice(0, AUDIT_VALUE_MAX), new: after.slice(0, AUDIT_VALUE_MAX) };
  if (before.length > AUDIT_VALUE_MAX) detail.old_truncated = true;
  if (after.length > AUDIT_VALUE_MAX) detail.new_truncated = true;
  return detail;
}

export async function updateOption({ ctx, input }: { ctx: UserCtx; input: { key: string; value: string } }): Promise<void> {
  const key = input.key;
  if (!isOptionKey(key)) throw new AppError("INVALID_INPUT", "invalid_parameter");
  // route() refused an admin without the key's tab (settings:<tab>, docs/permissions.md)
  if (!canWriteOption(key, ctx.user.role)) throw new AppError("FORBIDDEN", "option_root_only");
  const check = validateOption(key, input.value, getOption);
  if (!check.ok) throw new AppError("INVALID_INPUT", check.key, check.params);
  const before = getOption(key);
  await setOption(key, check.value);
  if (before !== check.value)
    await recordAudit(ctx, { action: "option_change", target: { type: "option", id: key }, detail: optionChangeDetail(key, before, check.value) });
}
