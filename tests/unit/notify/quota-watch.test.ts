// The relay's side of quota warnings (lib/notify/quota-watch.ts): a settlement's balance is
// compared with this node's copy of the user's threshold; only a balance below it, outside
// the cooldown, or a user not known yet, is handed to the background check.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const checked: number[][] = [];
vi.mock("@/lib/notify/quota-warning", () => ({ checkQuotaWarnings: async (ids: number[]) => void checked.push(ids) }));

const watch = await import("@/lib/notify/quota-watch");
const state = () => (globalThis as unknown as { __gatewayQuotaWatch: { due: Set<number> } }).__gatewayQuotaWatch;

beforeEach(() => {
  vi.useFakeTimers();
  checked.length = 0;
  watch.forgetAll();
});
afterEach(() => vi.useRealTimers());

async function settleBatch(): Promise<number[]> {
  await vi.advanceTimersByTimeAsync(200);
  await vi.dynamicImportSettled();
  return checked.flat().sort((a, b) => a - b);
}

describe("noteBalance", () => {
  it("hands an unknown user to the background check, once per batch", async () => {
    watch.noteBalance(1, 10n);
    watch.noteBalance(1, 9n);
    watch.noteBalance(2, 10n);
    expect([...state().due]).toEqual([1, 2]);
    expect(await settleBatch()).toEqual([1, 2]);
    expect(checked).toHaveLength(1);
  });

  it("does nothing while the balance stays at or above the known threshold", async () => {
    watch.watchUser(3, 1000n, 0);
    watch.noteBalance(3, 1000n);
    watch.noteBalance(3, 50_000n);
    expect(state().due.size).toBe(0);
    expect(await settleBatch()).toEqual([]);
  });

  it("checks a balance below the threshold, unless this node knows a warning went out within the cooldown", async () => {
    watch.watchUser(4, 1000n, 0);
    watch.noteBalance(4, 999n);
    expect(await settleBatch()).toEqual([4]);
    checked.length = 0;
    watch.watchUser(4, 1000n, Date.now() + 7200_000);
    watch.noteBalance(4, 10n);
    expect(await settleBatch()).toEqual([]);
    // after the cooldown
    vi.setSystemTime(Date.now() + 7201_000);
    watch.noteBalance(4, 10n);
    expect(await settleBatch()).toEqual([4]);
  });

  it("a user with warnings off is never checked, a forgotten one is read again", async () => {
    watch.watchUser(5, watch.NO_THRESHOLD, 0);
    watch.noteBalance(5, -100n);
    expect(await settleBatch()).toEqual([]);
    watch.forgetUser(5);
    watch.noteBalance(5, -100n);
    expect(await settleBatch()).toEqual([5]);
  });

  it("forgets every threshold after WATCH_TTL_MS, so a setting saved on another node is seen", async () => {
    watch.watchUser(6, 1000n, 0);
    watch.noteBalance(6, 5000n);
    expect(await settleBatch()).toEqual([]);
    await vi.advanceTimersByTimeAsync(watch.WATCH_TTL_MS + 1);
    watch.noteBalance(6, 5000n);
    expect(await settleBatch()).toEqual([6]);
  });
});
