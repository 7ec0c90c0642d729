// Start-up work that must finish before any request is served: the database migrations
// and the options cache. server.ts awaits it before listening; route handlers await the
// same promise (a no-op once done), which also covers code paths that run without server.ts.
import "server-only";
import { logger } from "@/lib/logger";
import { migrate } from "@/lib/db/migrate";
import { truncateSqliteWal } from "@/lib/db/client";
import { loadOptions, sealPlaintextSecretOptions } from "@/lib/options/store";
import { sealPlaintextWebhookSecrets } from "@/lib/notify/webhook-secret";
import { subscribeInvalidations } from "@/lib/cache/invalidate";
import { whenRedisReady } from "@/lib/cache/redis";

const log = logger("boot");

const holder = globalThis as unknown as { __gatewayBoot?: Promise<void> };

export function ensureReady(): Promise<void> {
  holder.__gatewayBoot ??= (async () => {
    const applied = await migrate();
    if (applied.length) log.info({ migrations: applied }, "applied migrations");
    // secret options stored in plaintext by an older version are sealed (docs/secrets.md)
    const sealed = await sealPlaintextSecretOptions();
    if (sealed.length) log.info({ options: sealed }, "sealed secret options stored in plaintext");
    // and users' webhook secrets (docs/secrets.md)
    const hooks = await sealPlaintextWebhookSecrets();
    if (hooks) log.info({ users: hooks }, "sealed the webhook secrets of users stored in plaintext");
    if (sealed.length || hooks) await truncateSqliteWal();
    await loadOptions();
    subscribeInvalidations(); // in the background: Redis may be down
    await whenRedisReady(2000);
  })().catch((err) => {
    holder.__gatewayBoot = undefined;
    throw err;
  });
  return holder.__gatewayBoot;
}
