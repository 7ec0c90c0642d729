// Start-up work that must finish before any request is served: the database migrations
// and the options cache. server.ts awaits it before listening; route handlers await the
// same promise (a no-op once done), which also covers code paths that run without server.ts.
import "server-only";
import { migrate } from "@/lib/db/migrate";
import { truncateSqliteWal } from "@/lib/db/client";
import { loadOptions, sealPlaintextSecretOptions } from "@/lib/options/store";
import { sealPlaintextWebhookSecrets } from "@/lib/notify/webhook-secret";
import { subscribeInvalidations } from "@/lib/cache/invalidate";

const holder = globalThis as unknown as { __gatewayBoot?: Promise<void> };

export function ensureReady(): Promise<void> {
  holder.__gatewayBoot ??= (async () => {
    const applied = await migrate();
    if (applied.length) console.log(`[db] applied migrations: ${applied.join(", ")}`);
    // secret options stored in plaintext by an older version are sealed (docs/secrets.md)
    const sealed = await sealPlaintextSecretOptions();
    if (sealed.length) console.log(`[options] sealed secret options stored in plaintext: ${sealed.join(", ")}`);
    // and users' webhook secrets (docs/secrets.md)
    const hooks = await sealPlaintextWebhookSecrets();
    if (hooks) console.log(`[notify] sealed the webhook secrets of ${hooks} users stored in plaintext`);
    if (sealed.length || hooks) await truncateSqliteWal();
    await loadOptions();
    await subscribeInvalidations();
  })().catch((err) => {
    holder.__gatewayBoot = undefined;
    throw err;
  });
  return holder.__gatewayBoot;
}
