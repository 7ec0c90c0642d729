import { describe, expect, it } from "vitest";
import { Canceller } from "@/lib/relay/cancel";

describe("Canceller", () => {
  it("calls each listener once, on the first abort only, and none added afterwards (as AbortSignal)", () => {
    const c = new Canceller();
    const calls: string[] = [];
    c.addEventListener("abort", () => calls.push("a"));
    c.addEventListener("abort", () => calls.push("b"), { once: true });
    expect(c.aborted).toBe(false);
    c.abort();
    c.abort();
    c.addEventListener("abort", () => calls.push("late"));
    expect(c.aborted).toBe(true);
    expect(calls).toEqual(["a", "b"]);
  });

  it("forgets a removed listener (undici removes its own once the call is over)", () => {
    const c = new Canceller();
    const calls: string[] = [];
    const gone = () => calls.push("removed");
    c.addEventListener("abort", gone);
    c.addEventListener("abort", () => calls.push("kept"));
    c.removeEventListener("abort", gone);
    c.removeEventListener("abort", gone); // twice: nothing else goes
    c.abort();
    expect(calls).toEqual(["kept"]);
  });
});
