// The root's test notification (POST /api/user/{id}/test_notification): one notification,
// now, through the channel of the user's settings, in the user's language; one webhook try
// (the root waits for the answer). Answers where it went, or the reason it did not: no
// address, SMTP not configured, the webhook refused or failed with its status. Never a
// secret. It neither claims nor resets the quota-warning cooldown.
import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/ctx";
import { deliver } from "@/lib/notify/deliver";
import { testNotice, userLocale } from "@/lib/notify/notice";
import { channelOf, parseNotifySetting } from "@/lib/notify/rules";
import { openWebhookSecret } from "@/lib/notify/webhook-secret";

export async function testNotification({ ctx, input }: { ctx: UserCtx; input: { id: number } }): Promise<string> {
  const user = await db().user.findUnique({ where: { id: input.id } });
  if (!user || user.deleted_at !== null) throw new AppError("NOT_FOUND", "user_not_found");
  const channel = channelOf(parseNotifySetting(user.setting), user.email, (stored) => openWebhookSecret(stored, user.id));
  const outcome = await deliver(channel, testNotice(userLocale(user.language), { username: user.username }), { tries: 1 });
  if (!outcome.ok) {
    const params = outcome.detailKey ? { detail: ctx.t(outcome.detailKey) } : outcome.params;
    throw new AppError("UPSTREAM", outcome.key, params);
  }
  return channel.kind === "email" ? ctx.t("notify_test_sent_email", { to: channel.to }) : ctx.t("notify_test_sent_webhook");
}
