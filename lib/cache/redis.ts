// The shared Redis connection, present only when REDIS_URL is set (multi-node mode).
import "server-only";
import Redis, { type RedisOptions } from "ioredis";
import { env } from "@/lib/env";
import { describeError } from "@/lib/errors";
import { logger } from "@/lib/logger";

const log = logger("redis");

const holder = globalThis as unknown as { __gatewayRedis?: Redis | null };

export function redis(): Redis | null {
  if (holder.__gatewayRedis === undefined) {
    const url = env().REDIS_URL;
    holder.__gatewayRedis = url ? connectRedis(url, "commands", { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false }) : null;
  }
  return holder.__gatewayRedis;
}

// Resolves once the shared client is connected, or after `ms` (at start-up: a healthy cluster
// counts its rate limits in Redis from the first call, a node whose Redis is down still starts).
export function whenRedisReady(ms: number): Promise<void> {
  const r = redis();
  if (!r || r.status === "ready") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      r.off("ready", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    r.once("ready", done);
  });
}

// A Redis client whose connection troubles go to the log as JSON lines: one line when it
// stops answering, one when it is back (ioredis reconnects by itself, and without an
// "error" listener it would print a stack trace on every attempt).
export function connectRedis(url: string, role: string, options: RedisOptions): Redis {
  const client = new Redis(url, options);
  let down = false;
  client.on("error", (err: unknown) => {
    if (down) return;
    down = true;
    log.error({ role, error: describeError(err) }, "redis unreachable; reconnecting");
  });
  client.on("ready", () => {
    if (!down) return;
    down = false;
    log.info({ role }, "redis reachable again");
  });
  return client;
}

// Every key and pub/sub channel of this deployment carries REDIS_PREFIX.
export function redisKey(name: string): string {
  return `${env().REDIS_PREFIX}${name}`;
}
