// The token keys the key search has opened, in this process's memory only (never written to
// disk, a log or an answer): opening 10,000 sealed keys per search took most of a second
// (docs/channels-tokens-billing.md, "Token search at scale"). An entry is keyed by the token's
// lookup hash and holds the sealed form it was opened from, so a key sealed anew is opened
// anew; it is dropped with the relay's token cache, on this node by tokensChanged and on the
// others through the "tokens" invalidation.
import "server-only";
import type { Token } from "@/generated/sqlite/client";
import { open } from "@/lib/auth/secret-box";
import { onInvalidate } from "@/lib/cache/invalidate";

const MAX_ENTRIES = 200_000;

const state = globalThis as unknown as { __gatewayOpenedKeys?: Map<string, { sealed: string; key: string }> };
const opened = () => (state.__gatewayOpenedKeys ??= new Map());

// The secret part of a token's key (without "sk-").
export function openedKey(t: Pick<Token, "key_hash" | "key_cipher">): string {
  const hit = opened().get(t.key_hash);
  if (hit?.sealed === t.key_cipher) return hit.key;
  const key = open(t.key_cipher);
  if (opened().size >= MAX_ENTRIES) opened().clear();
  opened().set(t.key_hash, { sealed: t.key_cipher, key });
  return key;
}

export function forgetOpenedKey(keyHash?: string): void {
  if (keyHash === undefined) opened().clear();
  else opened().delete(keyHash);
}

onInvalidate((topic, id) => (topic === "tokens" ? forgetOpenedKey(id) : undefined));
