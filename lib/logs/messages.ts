// Log rows the server writes for a person (a redemption, a check-in, an online top-up, an
// admin's quota change, a failed task's refund, a crashed call's refund) keep their English `content` for old readers and the CSV export, and
// name what happened in `other.message`: a key and its parameters, which the usage log renders
// in the reader's language, quota amounts by the display rule (docs/channels-tokens-billing.md,
// "Log rows in the reader's language"). The browser loads this module too: no server-only import.

// Per key, the parameters that are quota amounts (units).
export const LOG_MESSAGE_QUOTAS = {
  redeem: ["quota"],
  redeem_gift: ["quota"],
  check_in: ["quota"],
  online_topup: ["quota"],
  admin_set_quota: ["from", "to"],
  task_refund: ["quota"],
  sweep_node_stopped: [],
  sweep_left_open: [],
} as const satisfies Record<string, readonly string[]>;

export type LogMessageKey = keyof typeof LOG_MESSAGE_QUOTAS;
export type LogMessage = { key: LogMessageKey; params: Record<string, string | number> };

/** The `other.message` of a row: parameters as JSON numbers and strings (a bigint as a number). */
export function logMessage(key: LogMessageKey, params: Record<string, string | number | bigint>): LogMessage {
  return { key, params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])) };
}

/** The message a row's parsed `other` carries, when it is one this version knows. */
export function logMessageOf(other: Record<string, unknown>): LogMessage | null {
  const m = other.message as { key?: unknown; params?: unknown } | undefined;
  if (!m || typeof m.key !== "string" || !Object.hasOwn(LOG_MESSAGE_QUOTAS, m.key)) return null;
  if (!m.params || typeof m.params !== "object") return null;
  return { key: m.key as LogMessageKey, params: m.params as Record<string, string | number> };
}
