// The client-side checks of the input limits (docs/product-rules.md, "Accounts"). They spare a round trip and mirror the
// server's rules; the server checks everything again. Each returns a message key under
// "validation" in messages/*.json, or null when the input passes.
export type ValidationKey =
  | "loginRequired"
  | "usernamePasswordEmpty"
  | "passwordTooShort"
  | "passwordsDiffer"
  | "setupUsernameRequired"
  | "setupPasswordShort"
  | "setupPasswordMismatch"
  | "deleteConfirmMismatch"
  | "transferMin"
  | "webhookHttps"
  | "webhookUrlRequired"
  | "notifyEmailInvalid"
  | "thresholdInvalid"
  | "emailInvalid";

export const PASSWORD_MIN = 8;
export const USERNAME_MAX = 12;

export function checkLogin(username: string, password: string): ValidationKey | null {
  return !username.trim() || !password ? "loginRequired" : null;
}

export function checkRegister(v: { username: string; password: string; password2: string }): ValidationKey | null {
  if (!v.username.trim() || !v.password) return "usernamePasswordEmpty";
  if (v.password.length < PASSWORD_MIN) return "passwordTooShort";
  if (v.password !== v.password2) return "passwordsDiffer";
  return null;
}

export function checkSetup(v: { username: string; password: string; confirmPassword: string }): ValidationKey | null {
  if (!v.username.trim()) return "setupUsernameRequired";
  if (v.password.length < PASSWORD_MIN) return "setupPasswordShort";
  if (v.password !== v.confirmPassword) return "setupPasswordMismatch";
  return null;
}

export function checkAddUser(v: { username: string; password: string }): ValidationKey | null {
  return !v.username.trim() || !v.password ? "usernamePasswordEmpty" : null;
}

export function checkPasswordChange(v: { password: string; password2: string }): ValidationKey | null {
  if (v.password.length < PASSWORD_MIN) return "passwordTooShort";
  if (v.password !== v.password2) return "passwordsDiffer";
  return null;
}

// Deleting one's account: the exact username, nothing else.
export function checkDeleteConfirm(typed: string, username: string): ValidationKey | null {
  return typed === username ? null : "deleteConfirmMismatch";
}

// Moving invitation earnings to the balance: at least one quota unit (1 USD worth).
export function checkTransfer(quota: number, quotaPerUnit: number): ValidationKey | null {
  return Number.isFinite(quota) && quota >= quotaPerUnit ? null : "transferMin";
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (v: string) => EMAIL.test(v);

export function checkEmailIfGiven(email: string): ValidationKey | null {
  return email.trim() && !isEmail(email.trim()) ? "emailInvalid" : null;
}

export function checkWebhookUrl(url: string): ValidationKey | null {
  if (!url.trim()) return "webhookUrlRequired";
  return url.trim().startsWith("https://") ? null : "webhookHttps";
}
