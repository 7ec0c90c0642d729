// The caller's notification and display settings, kept as JSON in user.setting. Given
// fields replace stored ones; an empty webhook_secret keeps the stored secret (secrets are
// never sent back, so the form cannot resend them); the secret is stored sealed. Webhooks
// must use https, and a new webhook address whose host is an IP literal the outbound policy
// refuses (docs/outbound.md) is refused at once; names are judged when a notification is sent (docs/notifications.md).
// The caller's console language is kept for the notifications mailed to them.
import "server-only";
import { isSealed } from "@/lib/auth/secret-box";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/http/route";
import { urlRefusal } from "@/lib/net/outbound";
import { webhookRefusalKey } from "@/lib/notify/rules";
import { sealWebhookSecret } from "@/lib/notify/webhook-secret";
import { presentUser } from "@/lib/users/present";
import { userChanged } from "@/lib/users/changed";
import { webhookRefusal, type SettingInput } from "@/lib/users/field-rules";

export type UserSetting = {
  notify_type?: "email" | "webhook";
  quota_warning_threshold?: number;
  webhook_url?: string;
  webhook_secret?: string;
  notification_email?: string;
  accept_unset_model_ratio_model?: boolean;
  show_ip_in_logs?: boolean;
};

export function parseSetting(raw: string): UserSetting {
  try {
    const v = JSON.parse(raw);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as UserSetting) : {};
  } catch {
    return {};
  }
}

// Pure merge and validation, unit-tested: the stored setting after applying input.
export function mergeSetting(stored: UserSetting, input: SettingInput): UserSetting | { refuse: "webhook_https_only" } {
  const next: UserSetting = { ...stored };
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    if (k === "webhook_secret" && v === "") continue;
    (next as Record<string, unknown>)[k] = v;
  }
  const refusal = webhookRefusal(next.notify_type, next.webhook_url);
  if (refusal) return { refuse: refusal };
  return next;
}

export async function updateSetting({ ctx, input }: { ctx: UserCtx; input: SettingInput }) {
  const stored = parseSetting(ctx.user.setting);
  const merged = mergeSetting(stored, input);
  if ("refuse" in merged) throw new AppError("RULE", merged.refuse);
  if (merged.webhook_url && merged.webhook_url !== stored.webhook_url) {
    const refused = urlRefusal(merged.webhook_url, "user");
    if (refused) throw new AppError("RULE", "webhook_address_refused", { detail: ctx.t(webhookRefusalKey(refused.reason)) });
  }
  // the secret is stored sealed (docs/secrets.md): a new one as typed, a kept one if an older
  // version left it in plaintext
  if (input.webhook_secret) merged.webhook_secret = sealWebhookSecret(input.webhook_secret);
  else if (merged.webhook_secret && !isSealed(merged.webhook_secret)) merged.webhook_secret = sealWebhookSecret(merged.webhook_secret);
  const user = await db().user.update({ where: { id: ctx.user.id }, data: { setting: JSON.stringify(merged), language: ctx.locale } });
  // the relay's cached copy of the setting and this user's quota-warning threshold
  await userChanged(ctx.user.id);
  return presentUser(user);
}
