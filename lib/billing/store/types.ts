// The quota movements of a relay call, as one atomic database transaction each. Two
// implementations (SQLite, PostgreSQL) run the same statements through the database driver
// directly: they are on the relay's hot path, where an ORM query costs more than the whole
// rest of the request (bench/ measured Prisma at two thirds of the CPU).
//
// Every method keeps the invariants of lib/billing/ledger.ts: a debit is a conditional
// update that never takes a balance below zero, and every change of a user's quota writes a
// quota_ledger row in the same transaction, so the ledger always sums to the balance.

export type ReserveInput = {
  userId: number;
  tokenId: number;
  unlimitedToken: boolean;
  amount: bigint;
  ref: string;
  // Called once, when the debits are decided and before they are committed (the relay
  // starts its upstream call there). The promise of reserve() still resolves only once the
  // reservation is committed, and rejects if the commit fails.
  beforeCommit?: () => void;
};
export type SettleInput = ReserveInput & { actual: bigint; channelId: number };

// Each returns the token's remaining quota afterwards, or null when no token quota moved.
export interface BillingStore {
  // Debits token (unless unlimited) and user by amount; throws QUOTA_EXCEEDED (token or user).
  reserve(input: ReserveInput): Promise<bigint | null>;
  // Replaces the reservation by the actual cost (the extra may take the user below zero:
  // the upstream has already served the call), counts the usage of user, token and channel.
  settle(input: SettleInput): Promise<bigint | null>;
  // Returns the whole reservation to token and user.
  refund(input: ReserveInput): Promise<bigint | null>;
  // Commits the movements still waiting (SQLite batches settlements, see store/sqlite.ts)
  // and resolves once every movement begun so far has ended; undefined when none is under
  // way (every console request asks, and most find nothing to wait for).
  flushSoon(): Promise<void> | undefined;
  // Movements waiting for their commit (read by GET /metrics; 0 where each commits at once).
  pending(): number;
}
