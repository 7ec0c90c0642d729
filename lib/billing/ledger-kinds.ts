// The ledger's kinds as the statement offers them in its filter (client and server). The list
// is exhaustive: a LedgerKind (lib/billing/ledger.ts) missing here fails the type check below,
// so `npx tsc --noEmit` and the build fail (docs/statement.md).
import type { LedgerKind } from "@/lib/billing/ledger";

export const LEDGER_KINDS = [
  "register_bonus",
  "invitee_bonus",
  "aff_transfer",
  "check_in",
  "admin_adjust",
  "redeem",
  "top_up",
  "relay_reserve",
  "relay_settle",
  "relay_refund",
  "plan_purchase",
  "plan_renew",
  "plan_expire",
  "plan_reset",
] as const satisfies readonly LedgerKind[];

// Compile-time check: every LedgerKind is in LEDGER_KINDS (`satisfies` above checks the other way).
type MissingLedgerKinds = Exclude<LedgerKind, (typeof LEDGER_KINDS)[number]>;
const everyLedgerKindListed: [MissingLedgerKinds] extends [never] ? true : { missing: MissingLedgerKinds } = true;
void everyLedgerKindListed;

// The kinds written by the relay for one call (reserve, then settle or refund), all with
// ref = the call's request id and token_id = the token used.
export const RELAY_LEDGER_KINDS = ["relay_reserve", "relay_settle", "relay_refund"] as const satisfies readonly LedgerKind[];

// 500000 quota units = 1 USD (the statement's CSV shows both).
export const UNITS_PER_USD = 500_000n;

// Exact USD of a number of units, 6 decimals (500000 divides 10^6 exactly: units × 2 / 10^6).
export function unitsToUsd(units: bigint): string {
  const neg = units < 0n;
  const micro = (neg ? -units : units) * (1_000_000n / UNITS_PER_USD);
  const whole = micro / 1_000_000n;
  const frac = (micro % 1_000_000n).toString().padStart(6, "0");
  return `${neg ? "-" : ""}${whole}.${frac}`;
}
