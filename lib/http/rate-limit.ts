// Fixed-window counters: in memory on one node, in Redis (INCR + EXPIRE) when REDIS_URL is
// set so that every node counts against the same window.
import { redis } from "@/lib/cache/redis";

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
    const k = `rl:${key}`;
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
