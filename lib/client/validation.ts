// The console's own checks, for inputs no server rule covers (the rules the server also
// enforces come from its schemas: docs/console-ui.md, "Forms"). Each returns a message key
// under "validation" in messages/*.json, or null when the input passes.
export type ValidationKey = "deleteConfirmMismatch" | "transferMin" | "emailRequired" | "emailCodeRequired";

// Deleting one's account: the exact username, nothing else (a confirmation the server
// does not ask for).
export function checkDeleteConfirm(typed: string, username: string): ValidationKey | null {
  return typed === username ? null : "deleteConfirmMismatch";
}

// Moving invitation earnings to the balance: at least one quota unit (1 USD worth). The
// server refuses the same with the minimum in quota units; the console shows it as money.
export function checkTransfer(quota: number, quotaPerUnit: number): ValidationKey | null {
  return Number.isFinite(quota) && quota >= quotaPerUnit ? null : "transferMin";
}

// Binding an e-mail address (and registering with e-mail verification on): both the address
// and the mailed code are required (docs/accounts-api.md).
export function checkEmailCode(email: string, code: string): ValidationKey | null {
  if (!email.trim()) return "emailRequired";
  if (!code.trim()) return "emailCodeRequired";
  return null;
}
