// The notification, price and other settings of /app/me (docs/product-rules.md, "Site status, setup status, browser state"; user setting
// JSON). Parsing the stored JSON, building the PUT /api/user/setting body, and telling
// whether anything changed.
export const THRESHOLD_PRESETS = [100000, 500000, 1000000, 5000000] as const;
// The form's default; a user whose setting lacks the field is warned at the site's
// QuotaRemindThreshold (docs/notifications.md), which the form does not invent.
export const DEFAULT_THRESHOLD = 100000;

export type NotifyType = "email" | "webhook";

export type UserSettings = {
  notify_type: NotifyType;
  quota_warning_threshold: number;
  webhook_url: string;
  webhook_secret: string;
  notification_email: string;
  accept_unset_model_ratio_model: boolean;
  show_ip_in_logs: boolean;
};

export function parseSettings(raw: string | null | undefined): UserSettings {
  let s: Record<string, unknown> = {};
  try {
    const parsed = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === "object") s = parsed as Record<string, unknown>;
  } catch {
    s = {};
  }
  const threshold = Number(s.quota_warning_threshold);
  return {
    notify_type: s.notify_type === "webhook" ? "webhook" : "email",
    quota_warning_threshold: Number.isFinite(threshold) && threshold > 0 ? threshold : DEFAULT_THRESHOLD,
    webhook_url: typeof s.webhook_url === "string" ? s.webhook_url : "",
    // The secret is never sent back by the server; the field starts empty.
    webhook_secret: "",
    notification_email: typeof s.notification_email === "string" ? s.notification_email : "",
    accept_unset_model_ratio_model: s.accept_unset_model_ratio_model === true,
    show_ip_in_logs: s.show_ip_in_logs === true,
  };
}

export function settingsChanged(before: UserSettings, after: UserSettings): boolean {
  return (Object.keys(after) as (keyof UserSettings)[]).some((k) => before[k] !== after[k]);
}

// The PUT body: an empty secret is not resent, so the stored one stays.
export function settingsPayload(s: UserSettings): Partial<UserSettings> {
  const { webhook_secret, ...rest } = s;
  return webhook_secret ? { ...rest, webhook_secret } : rest;
}

// The server never returns the secret, only whether one is stored.
export function secretIsSet(raw: string | null | undefined): boolean {
  try {
    return JSON.parse(raw || "{}").webhook_secret_set === true;
  } catch {
    return false;
  }
}
