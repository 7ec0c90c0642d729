// The task poller (docs/tasks.md, "The poller"): once a second, the node holding the cluster
// lease (lib/db/lease.ts) takes the unfinished tasks whose next poll is due, at most
// BATCH of each table, groups them by channel and asks each channel once (Midjourney-proxy
// list-by-condition, Suno fetch; a video is one GET). Each task is polled every
// TASK_POLL_INTERVAL_SECONDS; a failed poll backs off exponentially (up to 10 minutes); a task
// still unfinished after TASK_TIMEOUT_SECONDS fails and is refunded. At most CHANNELS_PER_ROUND
// channels are asked per round, which bounds the rate of upstream calls, CONCURRENCY at a time;
// the lease is renewed before each channel and the round stops once it is lost.
import "server-only";
import { logger } from "@/lib/logger";
import { db } from "@/lib/db/client";
import { describeError } from "@/lib/errors";
import { withClusterLease, type LeaseHandle } from "@/lib/db/lease";
import { pollMjTasks } from "@/lib/tasks/mj";
import { pollCreativeTasks } from "@/lib/tasks/creative";
import { channelIndex, type CachedChannel } from "@/lib/channels/channel-cache";
import { nowSeconds } from "@/lib/time";

const log = logger("tasks");

const TICK_MS = 1000;
const BATCH = 100;
const CHANNELS_PER_ROUND = 20;
const CONCURRENCY = 4;
// Longer than one channel's polls (15-second calls, a few writes); renewed before each channel.
const LEASE_TTL_MS = 60_000;

type State = { timer: NodeJS.Timeout | null; running: boolean };
const holder = globalThis as unknown as { __gatewayTaskPoller?: State };

// The channels of the routing cache (keys decrypted in memory, lib/channels/channel-cache.ts);
// a disabled channel is still asked about the tasks it already accepted.
async function channelsOf(): Promise<Map<number, CachedChannel>> {
  return (await channelIndex()).channels;
}

function byChannel<T extends { channel_id: number }>(rows: T[]): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const r of rows) {
    const list = m.get(r.channel_id);
    if (list) list.push(r);
    else m.set(r.channel_id, [r]);
  }
  return m;
}

// One round, run while holding the lease.
async function pollRound(lease: LeaseHandle): Promise<void> {
  const due = { billing_state: "reserved", next_poll_at: { lte: BigInt(nowSeconds()) } };
  const [images, creative] = await Promise.all([
    db().imageTask.findMany({ where: due, orderBy: { next_poll_at: "asc" }, take: BATCH }),
    db().creativeTask.findMany({ where: due, orderBy: { next_poll_at: "asc" }, take: BATCH }),
  ]);
  if (!images.length && !creative.length) return;
  const channels = await channelsOf();
  const jobs: (() => Promise<void>)[] = [];
  for (const [channelId, rows] of byChannel(images)) jobs.push(() => pollMjTasks(rows, channels.get(channelId) ?? null));
  for (const [channelId, rows] of byChannel(creative)) jobs.push(() => pollCreativeTasks(rows, channels.get(channelId) ?? null));
  const queue = jobs.slice(0, CHANNELS_PER_ROUND);
  let lost = false;
  const worker = async () => {
    for (let job = queue.shift(); job && !lost; job = queue.shift()) {
      if (!(await lease.renew())) {
        lost = true;
        return;
      }
      try {
        await job();
      } catch (err) {
        log.error({ error: describeError(err) }, "poll of a channel failed");
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
}

export function startTaskPoller(): void {
  if (holder.__gatewayTaskPoller) return;
  const state: State = { timer: null, running: false };
  holder.__gatewayTaskPoller = state;
  const tick = async () => {
    if (state.running) return;
    state.running = true;
    try {
      await withClusterLease("task-poller", LEASE_TTL_MS, pollRound);
    } catch (err) {
      log.error({ error: describeError(err) }, "poll round failed");
    } finally {
      state.running = false;
      if (holder.__gatewayTaskPoller === state) {
        state.timer = setTimeout(tick, TICK_MS);
        state.timer.unref();
      }
    }
  };
  state.timer = setTimeout(tick, TICK_MS);
  state.timer.unref();
}

export async function stopTaskPoller(): Promise<void> {
  const state = holder.__gatewayTaskPoller;
  if (!state) return;
  if (state.timer) clearTimeout(state.timer);
  holder.__gatewayTaskPoller = undefined;
}
