// Cancellation on the relay's hot path, without AbortController.
//
// On Node 20 every AbortSignal survives young-generation collections (measured: a loop that
// only creates AbortControllers promotes them all to the old generation), and with it
// everything its listeners reach: a relay call's request, answer and channel. Two per call
// turned each scavenge into a copy of a megabyte of dead calls, 2 to 7 ms at one connection
// instead of well under 1 ms, which is what the relay's p99 was made of. This class is the
// part of AbortSignal the relay uses, as a plain object.
import "server-only";

/** What the relay reads of a signal; an AbortSignal fits too (the fetch transport, tests). */
export interface Cancellation {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

export class Canceller implements Cancellation {
  aborted = false;
  private listeners: (() => void)[] | null = null;

  // Every listener runs once at most (the abort happens once), so `once` changes nothing.
  addEventListener(_type: "abort", listener: () => void, _options?: { once?: boolean }): void {
    if (!this.aborted) (this.listeners ??= []).push(listener); // as AbortSignal: none after the fact
  }

  removeEventListener(_type: "abort", listener: () => void): void {
    const at = this.listeners?.indexOf(listener) ?? -1;
    if (at !== -1) this.listeners!.splice(at, 1);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = null;
    if (listeners) for (const l of listeners) l();
  }
}
