// A user's webhook secret at rest (docs/secrets.md): sealed in users.setting (JSON) with
// lib/auth/secret-box.ts, as secret options are; opened only when a webhook is sent
// (rules.ts channelOf); never returned (lib/users/present.ts says only whether one is set).
// Secrets stored in plaintext by an older version are sealed at start-up (lib/boot.ts).
import "server-only";
import { logger } from "@/lib/logger";
import { isSealed, open, seal } from "@/lib/auth/secret-box";
import { db } from "@/lib/db/client";

const log = logger("notify");

/** The value stored for a secret the user typed. */
export function sealWebhookSecret(plain: string): string {
  return seal(plain);
}

/**
 * The secret to send, opened; "" when none is stored, or when it does not open (sealed with
 * another ENCRYPTION_KEY, or not sealed at all): the webhook then goes without it, and the log
 * names the user, never the value.
 */
export function openWebhookSecret(stored: string, userId: number): string {
  if (!stored) return "";
  try {
    return open(stored);
  } catch {
    log.error({ userId }, "a webhook secret cannot be opened (ENCRYPTION_KEY changed?): it is treated as not set");
    return "";
  }
}

const BATCH = 500;

/**
 * Start-up step (lib/boot.ts): every webhook_secret still stored in plaintext (written before
 * secrets were sealed) is sealed in place. The update is conditional on the setting being
 * unchanged, so a save made meanwhile on another node is never overwritten (that save seals
 * it anyway). Returns how many users' secrets were sealed.
 */
export async function sealPlaintextWebhookSecrets(): Promise<number> {
  let sealed = 0;
  for (let after = 0; ;) {
    const rows = await db().user.findMany({
      where: { id: { gt: after }, setting: { contains: "webhook_secret" } },
      select: { id: true, setting: true },
      orderBy: { id: "asc" },
      take: BATCH,
    });
    for (const row of rows) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(row.setting);
      } catch {
        continue;
      }
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) continue;
      const secret = (parsed as Record<string, unknown>).webhook_secret;
      if (typeof secret !== "string" || secret === "" || isSealed(secret)) continue;
      const setting = JSON.stringify(Object.assign({}, parsed, { webhook_secret: seal(secret) }));
      const done = await db().user.updateMany({ where: { id: row.id, setting: row.setting }, data: { setting } });
      sealed += done.count;
    }
    if (rows.length < BATCH) return sealed;
    after = rows[rows.length - 1].id;
  }
}
