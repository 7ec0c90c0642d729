// This node's identity for quota holds (docs/channels-tokens-billing.md, "Holds"), and the
// reservations it has open right now.
//
// The node id must survive a restart, so that a node that was killed finds its own holds at
// its next start and refunds them at once: env NODE_ID when set (one per node, unique in the
// cluster), else derived from what stays the same across restarts of one installation: the
// host name, the port and the data directory (a short hash of its absolute path).
import "server-only";
import { createHash } from "node:crypto";
import { hostname } from "node:os";
import { env } from "@/lib/env";

const holder = globalThis as unknown as { __gatewayNodeId?: string; __gatewayOpenHolds?: Set<string> };

export function nodeId(): string {
  if (holder.__gatewayNodeId) return holder.__gatewayNodeId;
  const e = env();
  const dir = createHash("sha256").update(e.DATA_DIR).digest("hex").slice(0, 8);
  holder.__gatewayNodeId = e.NODE_ID || `${hostname()}:${e.PORT}:${dir}`;
  return holder.__gatewayNodeId;
}

// The refs of the reservations this process has made and not yet closed (a Set: add and
// delete per call, no I/O). The node's own sweep leaves these alone, whatever their age: a
// stream may last as long as its upstream keeps sending. A reservation whose refund failed
// for good is taken out, so that the sweep returns it later.
export function openHolds(): Set<string> {
  return (holder.__gatewayOpenHolds ??= new Set());
}
