// Cross-node cache invalidation. Each node keeps options (and later tokens, channels, prices)
// in memory; after a write, the writer publishes what changed on Redis and every other node
// reloads it. Without REDIS_URL there is one node and nothing to publish.
import "server-only";
import { randomUUID } from "node:crypto";
import Redis from "ioredis";
import { env } from "@/lib/env";
import { redis, redisKey } from "@/lib/cache/redis";

const channel = () => redisKey("invalidate");

type Topic = "options" | "tokens" | "channels" | "users";
type Handler = (topic: Topic, id?: string) => void | Promise<void>;

const state = globalThis as unknown as {
  __gatewayInvalidation?: { nodeId: string; handlers: Set<Handler>; subscriber?: Redis };
};
function holder() {
  state.__gatewayInvalidation ??= { nodeId: randomUUID(), handlers: new Set() };
  return state.__gatewayInvalidation;
}

export function onInvalidate(handler: Handler): void {
  holder().handlers.add(handler);
}

export async function publishInvalidation(topic: Topic, id?: string): Promise<void> {
  const r = redis();
  if (!r) return;
  await r.publish(channel(), JSON.stringify({ from: holder().nodeId, topic, id }));
}

export async function subscribeInvalidations(): Promise<void> {
  const url = env().REDIS_URL;
  const h = holder();
  if (!url || h.subscriber) return;
  const sub = new Redis(url, { maxRetriesPerRequest: null });
  h.subscriber = sub;
  await sub.subscribe(channel());
  sub.on("message", (_channel, raw) => {
    try {
      const msg = JSON.parse(raw) as { from: string; topic: Topic; id?: string };
      if (msg.from === h.nodeId) return;
      for (const handler of h.handlers) void Promise.resolve(handler(msg.topic, msg.id)).catch(() => {});
    } catch {
      // a malformed message from outside is ignored
    }
  });
}
