// Cross-node cache invalidation. Each node keeps options (and later tokens, channels, prices)
// in memory; after a write, the writer publishes what changed on Redis and every other node
// reloads it. Without REDIS_URL there is one node and nothing to publish.
import "server-only";
import { randomUUID } from "node:crypto";
import type Redis from "ioredis";
import { env } from "@/lib/env";
import { connectRedis, redis, redisKey } from "@/lib/cache/redis";

const channel = () => redisKey("invalidate");

type Topic = "options" | "tokens" | "channels" | "users" | "sessions";
type Handler = (topic: Topic, id?: string) => void | Promise<void>;

const state = globalThis as unknown as {
  __gatewayInvalidation?: { nodeId: string; handlers: Set<Handler>; subscriber?: Redis; republishPending?: boolean };
};
function holder() {
  state.__gatewayInvalidation ??= { nodeId: randomUUID(), handlers: new Set() };
  return state.__gatewayInvalidation;
}

export function onInvalidate(handler: Handler): void {
  holder().handlers.add(handler);
}

// Never throws: the write it follows has committed. A message that could not be published
// (this node cut off from Redis) is made up for when the connection is back: every topic is
// published once without an id, and the other nodes reload or drop each cache whole.
export async function publishInvalidation(topic: Topic, id?: string): Promise<void> {
  const r = redis();
  if (!r) return;
  if (r.status === "ready") {
    try {
      await r.publish(channel(), JSON.stringify({ from: holder().nodeId, topic, id }));
      return;
    } catch {
      // lost on the way: made up for below
    }
  }
  const h = holder();
  if (h.republishPending) return;
  h.republishPending = true;
  r.once("ready", () => {
    h.republishPending = false;
    for (const t of TOPICS) void publishInvalidation(t);
  });
}

const TOPICS: readonly Topic[] = ["options", "channels", "tokens", "users", "sessions"];

function deliver(topic: Topic, id?: string): void {
  for (const handler of holder().handlers) void Promise.resolve(handler(topic, id)).catch(() => {});
}

// Subscribes in the background: a node starts, and serves, while Redis is down (its
// readiness probe says so). Every time the subscription is (re)made, each topic is delivered
// once without an id, so every cache is reloaded or dropped whole: whatever was published
// while this node was not listening is not missed (docs/operations.md, "When Redis is
// unreachable").
export function subscribeInvalidations(): void {
  const url = env().REDIS_URL;
  const h = holder();
  if (!url || h.subscriber) return;
  const sub = connectRedis(url, "invalidations", { maxRetriesPerRequest: null, autoResubscribe: false });
  h.subscriber = sub;
  sub.on("ready", () => {
    sub.subscribe(channel()).then(
      () => {
        for (const topic of TOPICS) deliver(topic);
      },
      () => {}, // the connection dropped again: the next "ready" tries again
    );
  });
  sub.on("message", (_channel, raw) => {
    try {
      const msg = JSON.parse(raw) as { from: string; topic: Topic; id?: string };
      if (msg.from === h.nodeId) return;
      deliver(msg.topic, msg.id);
    } catch {
      // a malformed message from outside is ignored
    }
  });
}
