// npm run ledger:check: checks the configured database (DATABASE_URL, else DATA_DIR's SQLite
// file, as the server chooses in lib/env.ts) with lib/billing/ledger-check.ts and prints every
// difference. Exit code 0: consistent; 1: differences found; 2: the check could not run.
import { ledgerDifferences } from "@/lib/billing/ledger-check";
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";

async function main(): Promise<number> {
  const kind = env().databaseKind;
  const started = Date.now();
  const r = await ledgerDifferences();
  const ms = Date.now() - started;
  console.log(`ledger check (${kind}): ${r.users_checked} users, ${r.tokens_checked} tokens, ${r.subscriptions_checked} subscriptions, ${ms} ms`);
  for (const u of r.users) {
    console.log(`user ${u.user_id} ${u.username || "(missing)"}: balance ${u.balance}, ledger sum ${u.ledger_sum}, difference ${u.difference}`);
  }
  for (const t of r.tokens) {
    console.log(`token ${t.token_id} (user ${t.user_id}) ${t.name}: used_quota ${t.used_quota}, relay movements ${t.relay_spent}, difference ${t.difference}`);
  }
  for (const p of r.subscriptions) {
    console.log(
      `subscription ${p.subscription_id} (user ${p.user_id}) ${p.plan_name || "(missing)"} ${p.status}: remaining ${p.remaining}, ledger sum ${p.ledger_sum}, difference ${p.difference}`,
    );
  }
  console.log(
    r.ok
      ? "OK: every balance and every plan's remaining quota equals its ledger"
      : `DIFFERENCES: ${r.users.length} user(s), ${r.tokens.length} token(s), ${r.subscriptions.length} subscription(s)`,
  );
  return r.ok ? 0 : 1;
}

main()
  .catch((err: unknown) => {
    console.error("ledger check failed:", err instanceof Error ? err.message : String(err));
    return 2;
  })
  .then(async (code) => {
    await db()
      .$disconnect()
      .catch(() => {});
    process.exit(code);
  });
