// The billing store of the configured database, created once per process.
import { env } from "@/lib/env";
import { sqliteConnection } from "@/lib/db/client";
import { pgPool } from "@/lib/db/raw";
import { postgresBillingStore } from "@/lib/billing/store/postgres";
import { sqliteBillingStore } from "@/lib/billing/store/sqlite";
import type { BillingStore } from "@/lib/billing/store/types";

const holder = globalThis as unknown as { __gatewayBilling?: Promise<BillingStore> };

export function billingStore(): Promise<BillingStore> {
  const e = env();
  holder.__gatewayBilling ??=
    e.databaseKind === "postgresql"
      ? Promise.resolve(postgresBillingStore(pgPool()))
      : sqliteConnection().then(sqliteBillingStore);
  return holder.__gatewayBilling;
}
