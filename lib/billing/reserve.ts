// Quota reservation before an upstream call: the token's remaining quota (unless the token
// is unlimited) and the user's balance are debited by the estimate in one transaction, with
// its ledger row; either both happen or neither, and neither goes below zero however many
// calls race for the same balance (lib/billing/store does the SQL). The same transaction
// writes the reservation's hold, which the node's own sweeper leaves alone while the ref is
// in openHolds() (docs/channels-tokens-billing.md, "Holds").
import "server-only";
import { randomUUID } from "node:crypto";
import { billingStore } from "@/lib/billing/store";
import { noteTokenQuota } from "@/lib/cache/token-store";
import { openHolds } from "@/lib/billing/node";

export type Reservation = {
  userId: number;
  tokenId: number; // 0 in the playground (billed to the user alone)
  unlimitedToken: boolean;
  amount: bigint; // quota units reserved (>= 0)
  ref: string; // ties the reserve, settle and refund ledger rows of one call together
  state: "open" | "settled" | "refunded";
};

// beforeCommit: called once the debits are decided, before the promise resolves (see
// ReserveInput); a refused reservation never calls it.
export async function reserve(
  input: { userId: number; tokenId: number; unlimitedToken: boolean; amount: bigint; ref?: string; requestId?: string | null },
  beforeCommit?: () => void,
): Promise<Reservation> {
  if (input.amount < 0n) throw new Error("reserve: negative amount");
  // explicit literals: { ...input, more } costs a new hidden class per call on Node 20
  const { userId, tokenId, unlimitedToken, amount } = input;
  const ref = input.ref ?? randomUUID();
  const r: Reservation = { userId, tokenId, unlimitedToken, amount, ref, state: "open" };
  if (r.amount > 0n) {
    const open = openHolds();
    open.add(ref); // before the hold can exist, so that the node's sweep never sees it unlisted
    let remain: bigint | null;
    try {
      remain = await (await billingStore()).reserve({ userId, tokenId, unlimitedToken, amount, ref, requestId: input.requestId ?? null, beforeCommit });
    } catch (err) {
      open.delete(ref);
      throw err;
    }
    if (remain !== null) noteTokenQuota(r.tokenId, remain);
  } else beforeCommit?.();
  return r;
}
