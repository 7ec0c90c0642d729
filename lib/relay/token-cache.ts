// API token authentication for the relay, from memory. Tokens and their owners are cached
// by the token's lookup hash for a short time (TTL_MS) and dropped at once on any write
// through the console (here and, through Redis, on other nodes). The token's remaining quota
// in the cache is only a fast pre-check: reserve() re-checks it with a conditional update.
import "server-only";
import { logger } from "@/lib/logger";
import { isIP } from "node:net";
import { lookupHash } from "@/lib/auth/lookup-hash";
import { isAdmin } from "@/lib/auth/roles";
import { onInvalidate } from "@/lib/cache/invalidate";
import { db } from "@/lib/db/client";
import { AppError, describeError } from "@/lib/errors";
import { canUseGroup } from "@/lib/billing/groups";
import { tokenCache as cache, type CachedToken, type CachedUser, type Entry } from "@/lib/cache/token-store";
import { nowSeconds } from "@/lib/time";
import { limitArray } from "@/lib/limits/engine";
import { TOKEN_STATUS, USER_STATUS } from "@/lib/statuses";

const log = logger("tokens");

export type { CachedToken, CachedUser };

const TTL_MS = 30_000;
const NEGATIVE_TTL_MS = 5_000;
const MAX_ENTRIES = 50_000;

export type TokenContext = {
  token: CachedToken;
  user: CachedUser;
  group: string; // the group the call is billed and routed in: the token's, else the user's
  pinnedChannelId: number | null; // admin keys sk-<key>-<channelId>
};

export function invalidateTokenCache(keyHash?: string): void {
  if (keyHash === undefined) {
    cache().byHash.clear();
    cache().hashById.clear();
  } else cache().byHash.delete(keyHash);
}

// A user's status, group or role changed: drop every cached token of that user.
export function invalidateUserTokens(userId: number): void {
  for (const [hash, e] of cache().byHash) if (e.value?.user.id === userId) cache().byHash.delete(hash);
}

onInvalidate((topic, id) => {
  if (topic === "tokens") invalidateTokenCache(id);
  if (topic === "users") {
    if (id) invalidateUserTokens(Number(id));
    else invalidateTokenCache();
  }
});

// A token with model limits may only call the models it lists.
export function checkTokenModel(token: Pick<CachedToken, "model_limits_enabled" | "model_limits">, model: string): void {
  if (token.model_limits_enabled && !token.model_limits.includes(model)) {
    throw new AppError("FORBIDDEN", "token_model_not_allowed", { model });
  }
}

async function load(hash: string): Promise<Entry["value"]> {
  const t = await db().token.findUnique({ where: { key_hash: hash } });
  if (!t || t.deleted_at !== null) return null;
  const u = await db().user.findUnique({
    where: { id: t.user_id },
    select: {
      id: true,
      username: true,
      group: true,
      role: true,
      status: true,
      setting: true,
      deleted_at: true,
      rpm_limit: true,
      tpm_limit: true,
      concurrency_limit: true,
      quota_5h: true,
      quota_day: true,
      quota_week: true,
      quota_month: true,
    },
  });
  if (!u || u.deleted_at !== null) return null;
  return {
    token: {
      id: t.id,
      user_id: t.user_id,
      name: t.name,
      status: t.status,
      expired_time: t.expired_time,
      remain_quota: t.remain_quota,
      unlimited_quota: t.unlimited_quota,
      model_limits_enabled: t.model_limits_enabled,
      model_limits: t.model_limits
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
      allow_ips: t.allow_ips
        .split(/\r?\n/)
        .map((s) => s.trim())
        .filter(Boolean),
      group: t.group,
      rate_limit_enabled: t.rate_limit_enabled,
      rate_limit_period: t.rate_limit_period,
      rate_limit_count: t.rate_limit_count,
      rate_limit_success: t.rate_limit_success,
      limits: limitArray(t),
    },
    user: { id: u.id, username: u.username, group: u.group, role: u.role, status: u.status, setting: u.setting, limits: limitArray(u) },
  };
}

async function lookup(hash: string) {
  const now = Date.now();
  const c = cache();
  const hit = c.byHash.get(hash);
  if (hit && hit.expires > now) return hit.value;
  const value = await load(hash);
  if (c.byHash.size >= MAX_ENTRIES) c.byHash.clear();
  c.byHash.set(hash, { value, expires: now + (value ? TTL_MS : NEGATIVE_TTL_MS) });
  if (value) c.hashById.set(value.token.id, hash);
  return value;
}

function ipv4ToInt(ip: string): number {
  return ip.split(".").reduce((n, part) => (n << 8) + Number(part), 0) >>> 0;
}

// Exact addresses, or IPv4 CIDR blocks (10.0.0.0/8).
export function ipAllowed(allowed: string[], ip: string): boolean {
  if (!allowed.length) return true;
  const addr = ip.replace(/^::ffff:/, "");
  for (const rule of allowed) {
    if (rule === addr) return true;
    const [net, bits] = rule.split("/");
    if (bits !== undefined && isIP(net) === 4 && isIP(addr) === 4) {
      const b = Number(bits);
      if (!Number.isInteger(b) || b < 0 || b > 32) continue;
      const mask = b === 0 ? 0 : (~0 << (32 - b)) >>> 0;
      if ((ipv4ToInt(net) & mask) === (ipv4ToInt(addr) & mask)) return true;
    }
  }
  return false;
}

function markStatus(id: number, status: typeof TOKEN_STATUS.expired | typeof TOKEN_STATUS.exhausted) {
  void db()
    .token.updateMany({ where: { id, status: TOKEN_STATUS.enabled }, data: { status } })
    .catch((err) => log.error({ error: describeError(err) }, "status update failed"));
}

// The lookup hashes of keys that matched a token: an HMAC per call was about 3% of the
// relay's CPU. Only matching keys are kept (made-up keys cannot fill it), KNOWN_KEYS at
// most. Holding the keys here exposes nothing new: each call brings its key into memory,
// and the process holds the encryption key that opens every stored token key.
const KNOWN_KEYS = 10_000;
const knownKeyHashes = new Map<string, string>();
function rememberKeyHash(secret: string, hash: string) {
  if (knownKeyHashes.has(secret)) return;
  if (knownKeyHashes.size >= KNOWN_KEYS) knownKeyHashes.clear();
  knownKeyHashes.set(secret, hash);
}

// Authenticates a relay call's key ("Bearer sk-...", "sk-..." or the bare key).
// Throws AppError: UNAUTHENTICATED (missing, invalid, expired, exhausted, unavailable) or
// FORBIDDEN (user banned, model or IP not allowed, group not usable, channel pinned by a
// non-admin).
export async function authenticateToken(rawKey: string | null | undefined, opts: { ip: string; model?: string }): Promise<TokenContext> {
  const raw = (rawKey ?? "")
    .replace(/^Bearer\s+/i, "")
    .trim()
    .replace(/^sk-/, "");
  if (!raw) throw new AppError("UNAUTHENTICATED", "token_missing");
  const [secret, channelPart] = raw.split("-");
  if (!secret) throw new AppError("UNAUTHENTICATED", "token_invalid");
  const hash = knownKeyHashes.get(secret) ?? lookupHash(secret);
  const found = await lookup(hash);
  if (!found) throw new AppError("UNAUTHENTICATED", "token_invalid");
  rememberKeyHash(secret, hash);
  const { token, user } = found;

  const now = nowSeconds();
  if (token.status === TOKEN_STATUS.expired) throw new AppError("UNAUTHENTICATED", "token_expired");
  if (token.status === TOKEN_STATUS.exhausted) throw new AppError("UNAUTHENTICATED", "token_exhausted");
  if (token.status !== TOKEN_STATUS.enabled) throw new AppError("UNAUTHENTICATED", "token_unavailable");
  if (token.expired_time !== -1n && token.expired_time <= BigInt(now)) {
    token.status = TOKEN_STATUS.expired;
    markStatus(token.id, TOKEN_STATUS.expired);
    throw new AppError("UNAUTHENTICATED", "token_expired");
  }
  if (!token.unlimited_quota && token.remain_quota <= 0n) {
    token.status = TOKEN_STATUS.exhausted;
    markStatus(token.id, TOKEN_STATUS.exhausted);
    throw new AppError("UNAUTHENTICATED", "token_exhausted");
  }
  if (user.status !== USER_STATUS.enabled) throw new AppError("FORBIDDEN", "user_banned");
  if (!ipAllowed(token.allow_ips, opts.ip)) throw new AppError("FORBIDDEN", "token_ip_not_allowed");
  if (opts.model) checkTokenModel(token, opts.model);
  const group = token.group || user.group;
  if (token.group && !canUseGroup(user.group, token.group)) {
    throw new AppError("FORBIDDEN", "token_group_not_usable", { group: token.group });
  }
  let pinnedChannelId: number | null = null;
  if (channelPart !== undefined) {
    if (!isAdmin(user.role)) throw new AppError("FORBIDDEN", "cannot_specify_channel");
    const id = Number(channelPart);
    if (!Number.isInteger(id) || id <= 0) throw new AppError("UNAUTHENTICATED", "token_invalid");
    pinnedChannelId = id;
  }
  return { token, user, group, pinnedChannelId };
}
