// The background half of quota warnings (docs/notifications.md): quota-watch.ts hands over
// the users whose balance a settlement left below their threshold (or whom this node did not
// know yet). Here, off the relay's path: read them in one query, tell quota-watch what they
// are, and for each one due, claim the warning with a conditional update of
// users.quota_warned_at (whichever node wins sends it; the others see the new time) and
// deliver it without anyone waiting for it.
import "server-only";
import { logger } from "@/lib/logger";
import { db } from "@/lib/db/client";
import { getOption } from "@/lib/options/store";
import { deliver } from "@/lib/notify/deliver";
import { quotaWarningNotice, userLocale } from "@/lib/notify/notice";
import { NO_THRESHOLD, watchUser } from "@/lib/notify/quota-watch";
import { channelOf, effectiveThreshold, parseNotifySetting, warningDue, WARNING_COOLDOWN_SECONDS } from "@/lib/notify/rules";
import { openWebhookSecret } from "@/lib/notify/webhook-secret";
import { mailConfigured } from "@/lib/mail/send";
import { nowSeconds } from "@/lib/time";

const log = logger("notify");

const MAX_IDS_PER_QUERY = 500;
const inFlight = new Set<number>();

export async function checkQuotaWarnings(ids: number[]): Promise<void> {
  const todo = ids.filter((id) => !inFlight.has(id));
  for (const id of todo) inFlight.add(id);
  try {
    for (let i = 0; i < todo.length; i += MAX_IDS_PER_QUERY) await checkSome(todo.slice(i, i + MAX_IDS_PER_QUERY));
  } finally {
    for (const id of todo) inFlight.delete(id);
  }
}

async function checkSome(ids: number[]): Promise<void> {
  const rows = await db().user.findMany({
    where: { id: { in: ids } },
    select: { id: true, username: true, email: true, quota: true, setting: true, language: true, quota_warned_at: true, deleted_at: true, status: true },
  });
  const option = getOption("QuotaRemindThreshold");
  for (const u of rows) {
    const setting = parseNotifySetting(u.setting);
    const threshold = u.deleted_at === null ? effectiveThreshold(setting, option) : 0n;
    const warnedAt = Number(u.quota_warned_at);
    const now = nowSeconds();
    watchUser(u.id, threshold > 0n ? threshold : NO_THRESHOLD, (warnedAt + WARNING_COOLDOWN_SECONDS) * 1000);
    if (!warningDue({ balance: u.quota, threshold, warnedAt, now })) continue;
    const channel = channelOf(setting, u.email, (stored) => openWebhookSecret(stored, u.id));
    // Nowhere to send it: nothing is claimed, and this node asks again after a cooldown.
    if (channel.kind === "none" || (channel.kind === "email" && !mailConfigured())) {
      watchUser(u.id, threshold, (now + WARNING_COOLDOWN_SECONDS) * 1000);
      continue;
    }
    const claimed = await db().user.updateMany({
      where: { id: u.id, quota_warned_at: { lte: BigInt(now - WARNING_COOLDOWN_SECONDS) } },
      data: { quota_warned_at: BigInt(now) },
    });
    watchUser(u.id, threshold, (now + WARNING_COOLDOWN_SECONDS) * 1000);
    if (claimed.count !== 1) continue; // another node (or a concurrent check) sent it
    const notice = quotaWarningNotice(userLocale(u.language), { username: u.username, balance: u.quota, threshold });
    void deliver(channel, notice).then((outcome) => {
      if (outcome.ok) log.info({ userId: u.id, by: channel.kind }, "quota warning sent");
      else log.error({ userId: u.id, by: channel.kind, reason: outcome.key, params: outcome.params, detail: outcome.detailKey }, "quota warning failed");
    });
  }
}
