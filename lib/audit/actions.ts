// The audit log's actions and target types (docs/audit.md, "What is recorded"). Pure and free
// of "server-only": the console's filter and labels read the same list.
export const AUDIT_ACTIONS = [
  // signing in and out
  "login",
  "login_failed",
  "login_2fa_required",
  "logout",
  "register",
  // the account's credentials
  "password_change",
  "password_reset",
  "twofa_enable",
  "twofa_disable",
  "twofa_reset",
  "twofa_backup_codes",
  "passkey_add",
  "passkey_remove",
  "access_token_generate",
  "session_revoke",
  // an admin's acts on users
  "user_create",
  "user_update",
  "role_change",
  "permission_change",
  "user_disable",
  "user_enable",
  "user_delete",
  "quota_change",
  // settings, channels, billing
  "option_change",
  "channel_create",
  "channel_update",
  "channel_delete",
  "channel_key_reveal",
  "redemption_create",
  "topup_complete",
  "plan_grant",
  "plan_revoke",
  // API tokens
  "token_create",
  "token_delete",
  "token_key_reveal",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = ["user", "option", "channel", "redemption", "topup", "plan", "subscription", "token", "passkey"] as const;

export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/** Why a sign-in was refused (the detail's reason of login_failed). */
export type LoginFailure =
  | "unknown_user"
  | "wrong_password"
  | "deregistered"
  | "banned"
  | "twofa_code_invalid"
  | "twofa_step_expired"
  | "passkey_unknown"
  | "passkey_invalid"
  | "password_login_disabled";
