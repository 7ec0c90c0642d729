// The public user object: what every response that returns a user carries. Built field by
// field (never by spreading the row), so that the password hash and the access-token hash
// can never leak, and the setting JSON loses its webhook secret.
import "server-only";
import type { User } from "@/generated/sqlite/client";
import { effectivePermissions } from "@/lib/auth/permissions";

// The stored setting JSON without webhook_secret; webhook_secret_set says whether one is kept.
export function publicSetting(raw: string): string {
  if (!raw) return "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return "";
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return "";
  const { webhook_secret, ...rest } = parsed as Record<string, unknown>;
  return JSON.stringify(Object.assign(rest, { webhook_secret_set: typeof webhook_secret === "string" && webhook_secret.length > 0 }));
}

export function presentUser(u: User) {
  return {
    id: u.id,
    username: u.username,
    display_name: u.display_name,
    role: u.role,
    status: u.status,
    email: u.email,
    group: u.group,
    quota: u.quota,
    used_quota: u.used_quota,
    request_count: u.request_count,
    aff_code: u.aff_code,
    aff_count: u.aff_count,
    aff_quota: u.aff_quota,
    aff_history_quota: u.aff_history_quota,
    inviter_id: u.inviter_id,
    github_id: u.github_id,
    oidc_id: u.oidc_id,
    wechat_id: u.wechat_id,
    telegram_id: u.telegram_id,
    linux_do_id: u.linux_do_id,
    idc_flare_id: u.idc_flare_id,
    setting: publicSetting(u.setting),
    remark: u.remark,
    created_time: u.created_time,
    last_login_time: u.last_login_time,
    DeletedAt: u.deleted_at,
    // usage limits (docs/usage-limits.md): 0 = the group's default, -1 = none
    rpm_limit: u.rpm_limit,
    tpm_limit: u.tpm_limit,
    concurrency_limit: u.concurrency_limit,
    quota_5h: u.quota_5h,
    quota_day: u.quota_day,
    quota_week: u.quota_week,
    quota_month: u.quota_month,
    // the effective admin permission set (docs/permissions.md): all for the root, none for a user
    permissions: effectivePermissions(u.role, u.permissions),
  };
}

export type PublicUser = ReturnType<typeof presentUser>;
