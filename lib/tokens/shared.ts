// Token keys and the token view. A key is "sk-" + 48 random letters and digits. The
// database keeps its keyed hash (lookup) and its sealed form (so that only the owner can
// copy it again); lists show it masked.
import "server-only";
import type { Token } from "@/generated/sqlite/client";
import { lookupHash, randomAlnum } from "@/lib/auth/lookup-hash";
import { open, seal } from "@/lib/auth/secret-box";
import { publishInvalidation } from "@/lib/cache/invalidate";
import { invalidateTokenCache } from "@/lib/relay/token-cache";
import { forgetOpenedKey } from "@/lib/tokens/opened-keys";

export const KEY_LENGTH = 48;

// The secret part (without "sk-") and what is stored for it.
export function newKey(): { key: string; key_hash: string; key_cipher: string } {
  const key = randomAlnum(KEY_LENGTH);
  return { key, key_hash: lookupHash(key), key_cipher: seal(key) };
}

export function fullKey(t: Pick<Token, "key_cipher">): string {
  return "sk-" + open(t.key_cipher);
}

// sk-abcd**********wxyz: enough to recognise a key, not to use it.
export function maskKey(t: Pick<Token, "key_cipher">): string {
  const k = open(t.key_cipher);
  return `sk-${k.slice(0, 4)}${"*".repeat(10)}${k.slice(-4)}`;
}

export type TokenView = Omit<Token, "key_hash" | "key_cipher" | "deleted_at"> & { key: string };

export function tokenView(t: Token, withFullKey = false): TokenView {
  const { key_hash: _h, key_cipher: _c, deleted_at: _d, ...rest } = t;
  return Object.assign(rest, { key: withFullKey ? fullKey(t) : maskKey(t) });
}

export const isExpired = (t: Pick<Token, "expired_time">, now: number) => t.expired_time !== -1n && t.expired_time <= BigInt(now);
export const isExhausted = (t: Pick<Token, "unlimited_quota" | "remain_quota">) => !t.unlimited_quota && t.remain_quota <= 0n;

export async function tokensChanged(keyHash: string): Promise<void> {
  invalidateTokenCache(keyHash);
  forgetOpenedKey(keyHash);
  await publishInvalidation("tokens", keyHash);
}
