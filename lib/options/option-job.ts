// A node's timer for a maintenance job that one node of the cluster runs at a time (the job
// takes its own lease, lib/db/lease.ts): every interval, once soon after start-up when asked,
// and soon after the option it depends on changes. The log retention and the audit log's
// retention (docs/operations.md, docs/audit.md) run on it. Its state lives on globalThis
// under `key`, so that a reloaded module finds the timer it started; stop() waits for a run
// under way, which checks stopping() between its batches.
import "server-only";
import { onOptionsApplied } from "@/lib/options/store";

type State = { timer?: NodeJS.Timeout; running?: Promise<void>; watched?: unknown; watching?: boolean; stopping?: boolean };

export type OptionJob = { start(): void; stop(): Promise<void>; stopping(): boolean };

export function optionJob(input: {
  key: string;
  intervalMs: () => number;
  /** a first run this long after start(); none when absent */
  firstRunMs?: number;
  /** the option's value: a change of it runs the job soon */
  watch: () => unknown;
  run: () => Promise<unknown>;
  onError: (err: unknown) => void;
}): OptionJob {
  const holder = globalThis as unknown as Record<string, State | undefined>;
  const state = (): State => (holder[input.key] ??= {});
  const runSoon = () => {
    const s = state();
    if (s.running || s.stopping) return;
    s.running = input
      .run()
      .then(() => undefined, input.onError)
      .finally(() => {
        s.running = undefined;
      });
  };
  return {
    stopping: () => state().stopping === true,
    start() {
      const s = state();
      if (s.timer) return;
      s.stopping = false;
      s.watched = input.watch();
      s.timer = setInterval(runSoon, input.intervalMs());
      s.timer.unref();
      if (input.firstRunMs !== undefined) setTimeout(runSoon, input.firstRunMs).unref();
      if (s.watching) return;
      s.watching = true;
      onOptionsApplied(() => {
        const value = input.watch();
        if (value === s.watched) return;
        s.watched = value;
        if (s.timer) setTimeout(runSoon, 100).unref();
      });
    },
    async stop() {
      const s = state();
      if (s.timer) clearInterval(s.timer);
      s.timer = undefined;
      s.stopping = true; // a run stops after its current batch
      await s.running;
    },
  };
}
