// Token verbs. Every query is scoped to the acting user: a user (admin included) never sees
// or changes another user's token through these calls.
import type { Prisma, Token, User } from "@/generated/sqlite/client";
import { randomAlnum } from "@/lib/auth/lookup-hash";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { nowSeconds } from "@/lib/billing/ledger";
import { canUseGroup } from "@/lib/billing/groups";
import type { TokenFields } from "@/lib/tokens/schemas";
import { TOKEN_STATUS, fullKey, isExhausted, isExpired, newKey, tokenView, tokensChanged } from "@/lib/tokens/shared";

type Actor = Pick<User, "id" | "group">;
const NAME_MAX = 50;
const live = (userId: number) => ({ user_id: userId, deleted_at: null });

function checkFields(actor: Actor, f: TokenFields, now: number) {
  if (f.name !== undefined && f.name.trim().length > NAME_MAX) throw new AppError("INVALID_INPUT", "token_name_too_long");
  if (f.remain_quota !== undefined && f.remain_quota < 0n) throw new AppError("INVALID_INPUT", "token_quota_negative");
  if (f.expired_time !== undefined && f.expired_time !== -1 && f.expired_time <= now) {
    throw new AppError("INVALID_INPUT", "token_expiry_invalid");
  }
  const group = f.group?.trim();
  if (group && !canUseGroup(actor.group, group)) throw new AppError("RULE", "token_group_not_usable", { group });
}

function data(f: TokenFields) {
  const d: Prisma.TokenUncheckedUpdateInput = {};
  if (f.name !== undefined) d.name = f.name.trim();
  if (f.remain_quota !== undefined) d.remain_quota = f.remain_quota;
  if (f.unlimited_quota !== undefined) d.unlimited_quota = f.unlimited_quota;
  if (f.expired_time !== undefined) d.expired_time = BigInt(f.expired_time);
  if (f.model_limits_enabled !== undefined) d.model_limits_enabled = f.model_limits_enabled;
  if (f.model_limits !== undefined) d.model_limits = f.model_limits;
  if (f.allow_ips !== undefined) {
    d.allow_ips = (f.allow_ips ?? "").split(/\r?\n/).map((s) => s.trim()).filter(Boolean).join("\n");
  }
  if (f.group !== undefined) d.group = (f.group ?? "").trim();
  if (f.rate_limit_enabled !== undefined) d.rate_limit_enabled = f.rate_limit_enabled;
  if (f.rate_limit_period !== undefined) d.rate_limit_period = f.rate_limit_period;
  if (f.rate_limit_count !== undefined) d.rate_limit_count = f.rate_limit_count;
  if (f.rate_limit_success !== undefined) d.rate_limit_success = f.rate_limit_success;
  return d;
}

export async function listTokens(actor: Actor, page: number, size: number) {
  const where = live(actor.id);
  const [rows, total] = await Promise.all([
    db().token.findMany({ where, orderBy: { id: "desc" }, skip: (page - 1) * size, take: size }),
    db().token.count({ where }),
  ]);
  return { items: rows.map((t) => tokenView(t)), total, page, page_size: size };
}

export async function getToken(actor: Actor, id: number) {
  const t = await db().token.findFirst({ where: { id, ...live(actor.id) } });
  if (!t) throw new AppError("NOT_FOUND", "token_not_found");
  return tokenView(t);
}

// The full key, for the owner's copy button.
export async function revealTokenKey(actor: Actor, id: number) {
  const t = await db().token.findFirst({ where: { id, ...live(actor.id) } });
  if (!t) throw new AppError("NOT_FOUND", "token_not_found");
  return { key: fullKey(t) };
}

// keyword matches the name; token matches any part of the key (with or without "sk-").
// Keys are stored sealed, so the second filter decrypts the owner's own tokens in memory.
export async function searchTokens(actor: Actor, input: { keyword?: string; token?: string; page: number; size: number }) {
  const keyword = input.keyword?.trim() ?? "";
  const fragment = (input.token ?? "").trim().replace(/^sk-/, "");
  const rows = await db().token.findMany({
    where: { ...live(actor.id), ...(keyword ? { name: { contains: keyword } } : {}) },
    orderBy: { id: "desc" },
  });
  const hits = fragment ? rows.filter((t) => fullKey(t).includes(fragment)) : rows;
  const start = (input.page - 1) * input.size;
  return { items: hits.slice(start, start + input.size).map((t) => tokenView(t)), total: hits.length, page: input.page, page_size: input.size };
}

export async function createTokens(actor: Actor, input: TokenFields & { count?: number }) {
  const now = nowSeconds();
  const name = input.name?.trim() ?? "";
  if (!name) throw new AppError("INVALID_INPUT", "token_name_required");
  const count = input.count ?? 1;
  if (!Number.isInteger(count) || count < 1 || count > 100) throw new AppError("INVALID_INPUT", "token_batch_count_invalid");
  checkFields(actor, input, now);
  const fields = data(input);
  const created = await db().$transaction(async (tx) => {
    const out: Token[] = [];
    for (let i = 0; i < count; i++) {
      const k = newKey();
      out.push(
        await tx.token.create({
          data: {
            ...(fields as Prisma.TokenUncheckedCreateInput),
            user_id: actor.id,
            name: i === 0 ? name : `${name}-${randomAlnum(6)}`,
            key_hash: k.key_hash,
            key_cipher: k.key_cipher,
            status: TOKEN_STATUS.enabled,
            created_time: BigInt(now),
            accessed_time: BigInt(now),
          },
        }),
      );
    }
    return out;
  });
  // The creator sees the new keys in full once, in this answer.
  return created.map((t) => tokenView(t, true));
}

// PUT /api/token/ (statusOnly: ?status_only=true, which changes the status alone).
export async function updateToken(actor: Actor, input: TokenFields & { id: number; status?: number }, statusOnly: boolean) {
  const now = nowSeconds();
  const current = await db().token.findFirst({ where: { id: input.id, ...live(actor.id) } });
  if (!current) throw new AppError("NOT_FOUND", "token_not_found");
  const changes: Prisma.TokenUncheckedUpdateInput = {};
  if (!statusOnly) {
    if (input.name !== undefined && !input.name.trim()) throw new AppError("INVALID_INPUT", "token_name_required");
    checkFields(actor, input, now);
    Object.assign(changes, data(input));
  }
  if (input.status !== undefined) {
    if (statusOnly && ![TOKEN_STATUS.enabled, TOKEN_STATUS.disabled].includes(input.status as 1 | 2)) {
      throw new AppError("INVALID_INPUT", "invalid_parameter");
    }
    changes.status = input.status;
  } else if (statusOnly) {
    throw new AppError("INVALID_INPUT", "invalid_parameter");
  }
  // The token as it would be after the change: an expired or exhausted token cannot be enabled.
  const after = {
    expired_time: changes.expired_time !== undefined ? (changes.expired_time as bigint) : current.expired_time,
    remain_quota: changes.remain_quota !== undefined ? (changes.remain_quota as bigint) : current.remain_quota,
    unlimited_quota: changes.unlimited_quota !== undefined ? (changes.unlimited_quota as boolean) : current.unlimited_quota,
  };
  if (changes.status === TOKEN_STATUS.enabled) {
    if (isExpired(after, now)) throw new AppError("RULE", "token_expired_cannot_enable");
    if (isExhausted(after)) throw new AppError("RULE", "token_exhausted_cannot_enable");
  }
  const updated = await db().token.update({ where: { id: current.id }, data: changes });
  await tokensChanged(current.key_hash);
  return tokenView(updated);
}

export async function deleteToken(actor: Actor, id: number) {
  const t = await db().token.findFirst({ where: { id, ...live(actor.id) } });
  if (!t) throw new AppError("NOT_FOUND", "token_not_found");
  await db().token.update({ where: { id }, data: { deleted_at: BigInt(nowSeconds()), status: TOKEN_STATUS.disabled } });
  await tokensChanged(t.key_hash);
}
