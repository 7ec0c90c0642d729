// settleOrRefund / refundOrLog: the retry and refund logic around the billing store, with a
// store that fails a given number of times (the real database failure is tested end to end
// in tests/integration/billing-bounds.test.ts).
import { beforeEach, describe, expect, it, vi } from "vitest";
import { HoldGone, type BillingStore } from "@/lib/billing/store/types";

const state = { settleFailures: 0, refundFailures: 0, settles: 0, refunds: 0, gone: false, logs: [] as Record<string, unknown>[] };
const fakeStore: BillingStore = {
  reserve: async () => null,
  settle: async () => {
    state.settles++;
    if (state.gone) throw new HoldGone("r1");
    if (state.settleFailures-- > 0) throw new Error("database is locked");
    return null;
  },
  refund: async () => {
    state.refunds++;
    if (state.gone) throw new HoldGone("r1");
    if (state.refundFailures-- > 0) throw new Error("database is locked");
    return null;
  },
  sweep: async () => null,
  flushSoon: () => undefined,
  pending: () => 0,
};
vi.mock("@/lib/billing/store", () => ({ billingStore: async () => fakeStore }));
vi.mock("@/lib/logs/writer", () => ({
  LOG_TYPE: { topup: 1, consume: 2, admin: 3, system: 4, checkIn: 5, error: 6 },
  enqueueLog: (e: Record<string, unknown>) => void state.logs.push(e),
}));

const { settleOrRefund, refundOrLog, MOVEMENT_ATTEMPTS } = await import("@/lib/billing/settle");
const { ChargeError } = await import("@/lib/billing/bounds");
const { openHolds } = await import("@/lib/billing/node");
const { applyOption } = await import("@/lib/options/store");
type Reservation = import("@/lib/billing/reserve").Reservation;

const open = (): Reservation => ({ userId: 1, tokenId: 2, unlimitedToken: true, amount: 500n, ref: "r1", state: "open" });
const log = () => ({ channel_id: 3, model_name: "m", other: { model_ratio: 1 } });

beforeEach(() => {
  Object.assign(state, { settleFailures: 0, refundFailures: 0, settles: 0, refunds: 0, gone: false, logs: [] });
  applyOption("LogConsumeEnabled", "true");
  vi.spyOn(console, "error").mockImplementation(() => {});
});

describe("settleOrRefund", () => {
  it("settles at once when the store works", async () => {
    const r = open();
    expect(await settleOrRefund(r, 300n, log())).toBe(true);
    expect(r.state).toBe("settled");
    expect([state.settles, state.refunds]).toEqual([1, 0]);
    expect(state.logs.map((l) => l.type)).toEqual([2]);
  });

  it("retries a settlement that fails, and charges once it succeeds", async () => {
    state.settleFailures = MOVEMENT_ATTEMPTS - 1;
    const r = open();
    expect(await settleOrRefund(r, 300n, log())).toBe(true);
    expect(r.state).toBe("settled");
    expect([state.settles, state.refunds]).toEqual([MOVEMENT_ATTEMPTS, 0]);
  });

  it("refunds once and writes a billing error row when every attempt fails", async () => {
    state.settleFailures = 99;
    const r = open();
    expect(await settleOrRefund(r, 300n, log())).toBe(false);
    expect(r.state).toBe("refunded");
    expect([state.settles, state.refunds]).toEqual([MOVEMENT_ATTEMPTS, 1]);
    expect(state.logs).toHaveLength(1);
    expect(state.logs[0]).toMatchObject({
      type: 6,
      quota: 0n,
      user_id: 1,
      token_id: 2,
      channel_id: 3,
      other: { model_ratio: 1, error_type: "billing_error", error_code: "settlement_failed" },
    });
    // a second attempt on the same reservation moves nothing
    expect(await refundOrLog(r, log())).toBe(true);
    expect(state.refunds).toBe(1);
  });

  it("refunds a call whose charge could not be computed, without trying to settle it", async () => {
    const r = open();
    expect(await settleOrRefund(r, new ChargeError("the charge of the call is not a finite amount (Infinity)"), log())).toBe(false);
    expect([state.settles, state.refunds]).toEqual([0, 1]);
    expect(state.logs[0]).toMatchObject({ type: 6, other: { error_code: "settlement_failed" } });
  });

  it("logs a refund that fails for good, leaving the reservation open", async () => {
    state.settleFailures = 99;
    state.refundFailures = 99;
    const r = open();
    expect(await settleOrRefund(r, 300n, log())).toBe(false);
    expect(r.state).toBe("open");
    expect(state.refunds).toBe(MOVEMENT_ATTEMPTS);
    expect(state.logs).toHaveLength(1);
    expect(state.logs[0]).toMatchObject({ type: 6, other: { error_code: "refund_failed" } });
  });

  it("takes a refund that fails for good out of the node's open holds, so that the sweeper returns it", async () => {
    state.refundFailures = 99;
    openHolds().add("r1");
    const r = open();
    expect(await refundOrLog(r, log())).toBe(false);
    expect(openHolds().has("r1")).toBe(false);
  });
});

describe("a hold the sweeper already refunded", () => {
  it("makes the settlement charge nothing, with a billing error row, and no second refund", async () => {
    state.gone = true;
    openHolds().add("r1");
    const r = open();
    expect(await settleOrRefund(r, 300n, log())).toBe(false);
    expect(r.state).toBe("refunded");
    expect([state.settles, state.refunds]).toEqual([1, 0]);
    expect(state.logs).toHaveLength(1);
    expect(state.logs[0]).toMatchObject({ type: 6, other: { error_code: "settlement_failed" } });
    expect(openHolds().has("r1")).toBe(false);
  });

  it("makes the refund a success that moves nothing more", async () => {
    state.gone = true;
    const r = open();
    expect(await refundOrLog(r, log())).toBe(true);
    expect(r.state).toBe("refunded");
    expect(state.refunds).toBe(1);
    expect(state.logs).toHaveLength(0);
  });
});
