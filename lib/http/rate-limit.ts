// Fixed-window counters: in memory on one node, in Redis (INCR + EXPIRE) when REDIS_URL is
// set so that every node counts against the same window. While Redis cannot be reached the
// node counts in its own memory, so the limits hold per node instead of failing every call
// (docs/operations.md, "When Redis is unreachable").
import "server-only";
import type Redis from "ioredis";
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

// Redis when it is connected; null on one node, or while it is down (no call waits on it).
function shared(): Redis | null {
  const r = redis();
  return r && r.status === "ready" ? r : null;
}

async function sharedIncr(r: Redis, key: string, windowSeconds: number): Promise<number | null> {
  const k = redisKey(key);
  try {
    const [[, n]] = (await r.multi().incr(k).expire(k, windowSeconds, "NX").exec()) as [[unknown, number]];
    return n;
  } catch {
    return null; // lost on the way: counted here instead
  }
}

function memoryIncr(key: string, windowSeconds: number): number {
  const now = Date.now();
  sweep(now);
  const w = windows().get(key);
  if (!w || w.resetAt <= now) {
    windows().set(key, { count: 1, resetAt: now + windowSeconds * 1000 });
    return 1;
  }
  return ++w.count;
}

// Counts one event in the window without a limit (e.g. successful calls); answers the count.
export async function count(key: string, windowSeconds: number): Promise<number> {
  const r = shared();
  return (r && (await sharedIncr(r, key, windowSeconds))) ?? memoryIncr(key, windowSeconds);
}

// Counts one hit for key and says whether it is within limit hits per windowSeconds.
export async function hit(key: string, limit: number, windowSeconds: number): Promise<boolean> {
  return (await count(key, windowSeconds)) <= limit;
}

// The current count of a window without counting a hit (0 when the window is over).
export async function peek(key: string): Promise<number> {
  const r = shared();
  if (r) {
    try {
      return Number((await r.get(redisKey(key))) ?? 0);
    } catch {
      // lost on the way: this node's own count
    }
  }
  const w = windows().get(key);
  return w && w.resetAt > Date.now() ? w.count : 0;
}
