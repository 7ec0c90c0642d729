// Fixed-window counters: in memory on one node, in Redis (INCR + EXPIRE) when REDIS_URL is
// set so that every node counts against the same window.
import "server-only";
import { redis, redisKey } from "@/lib/cache/redis";

type Window = { count: number; resetAt: number };
const memory = globalThis as unknown as { __gatewayWindows?: Map<string, Window> };
const windows = () => (memory.__gatewayWindows ??= new Map());

let lastSweep = 0;
function sweep(now: number) {
  if (now - lastSweep < 60_000) return;
  lastSweep = now;
  for (const [k, w] of windows()) if (w.resetAt <= now) windows().delete(k);
}

// Counts one hit for key and says whether it is within limit hits per windowSeconds.
export async function hit(key: string, limit: number, windowSeconds: number): Promise<boolean> {
  const r = redis();
  if (r) {
    const k = redisKey(key);
    const [[, count]] = (await r.multi().incr(k).expire(k, windowSeconds, "NX").exec()) as [[unknown, number]];
    return count <= limit;
  }
  const now = Date.now();
  sweep(now);
  const w = windows().get(key);
  if (!w || w.resetAt <= now) {
    windows().set(key, { count: 1, resetAt: now + windowSeconds * 1000 });
    return 1 <= limit;
  }
  w.count++;
  return w.count <= limit;
}

// The current count of a window without counting a hit (0 when the window is over).
export async function peek(key: string): Promise<number> {
  const r = redis();
  if (r) return Number((await r.get(redisKey(key))) ?? 0);
  const w = windows().get(key);
  return w && w.resetAt > Date.now() ? w.count : 0;
}

// Counts one event in the window without a limit (e.g. successful calls); answers the count.
export async function count(key: string, windowSeconds: number): Promise<number> {
  const r = redis();
  if (r) {
    const k = redisKey(key);
    const [[, n]] = (await r.multi().incr(k).expire(k, windowSeconds, "NX").exec()) as [[unknown, number]];
    return n;
  }
  const now = Date.now();
  sweep(now);
  const w = windows().get(key);
  if (!w || w.resetAt <= now) {
    windows().set(key, { count: 1, resetAt: now + windowSeconds * 1000 });
    return 1;
  }
  return ++w.count;
}
