// The relay's token cache itself (lib/relay/token-cache.ts fills and reads it). It sits
// below both the relay and billing so that reserve and settle can keep a cached token's
// remaining quota in step without importing the relay (docs/conventions.md, import direction).
import "server-only";

export type CachedToken = {
  id: number;
  user_id: number;
  name: string;
  status: number;
  expired_time: bigint;
  remain_quota: bigint;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string[];
  allow_ips: string[];
  group: string;
  rate_limit_enabled: boolean;
  rate_limit_period: number;
  rate_limit_count: number;
  rate_limit_success: number;
  // the usage limits (lib/limits/engine.ts limitArray, docs/usage-limits.md): null when none is set
  limits: number[] | null;
};

// `limits`: the user's own usage limits (0: the group's default, -1: none), null when all are 0
export type CachedUser = { id: number; username: string; group: string; role: number; status: number; setting: string; limits: number[] | null };

export type Entry = { value: { token: CachedToken; user: CachedUser } | null; expires: number };
const state = globalThis as unknown as { __gatewayTokenCache?: { byHash: Map<string, Entry>; hashById: Map<number, string> } };
export const tokenCache = () => (state.__gatewayTokenCache ??= { byHash: new Map(), hashById: new Map() });

// Keeps the cached remaining quota in step after reserve/settle/refund on this node.
export function noteTokenQuota(tokenId: number, remain: bigint): void {
  const hash = tokenCache().hashById.get(tokenId);
  const e = hash ? tokenCache().byHash.get(hash) : undefined;
  if (e?.value && e.value.token.id === tokenId) e.value.token.remain_quota = remain;
}
