// The shared Redis connection, present only when REDIS_URL is set (multi-node mode).
import "server-only";
import Redis from "ioredis";
import { env } from "@/lib/env";

const holder = globalThis as unknown as { __gatewayRedis?: Redis | null };

export function redis(): Redis | null {
  if (holder.__gatewayRedis === undefined) {
    const url = env().REDIS_URL;
    holder.__gatewayRedis = url ? new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false }) : null;
  }
  return holder.__gatewayRedis;
}

// Every key and pub/sub channel of this deployment carries REDIS_PREFIX.
export function redisKey(name: string): string {
  return `${env().REDIS_PREFIX}${name}`;
}
