// What creating and updating a token share: the checks on the fields given and their
// column values (absent fields are left alone).
import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import { AppError } from "@/lib/errors";
import { canUseGroup } from "@/lib/billing/groups";
import type { TokenFields } from "@/lib/tokens/schemas";
import type { TokenActor } from "@/lib/tokens/owned";

const NAME_MAX = 50;

export function checkTokenFields(actor: TokenActor, f: TokenFields, now: number) {
  if (f.name !== undefined && f.name.trim().length > NAME_MAX) throw new AppError("INVALID_INPUT", "token_name_too_long");
  if (f.remain_quota !== undefined && f.remain_quota < 0n) throw new AppError("INVALID_INPUT", "token_quota_negative");
  if (f.expired_time !== undefined && f.expired_time !== -1 && f.expired_time <= now) {
    throw new AppError("INVALID_INPUT", "token_expiry_past");
  }
  const group = f.group?.trim();
  if (group && !canUseGroup(actor.group, group)) throw new AppError("RULE", "token_group_not_usable", { group });
}

export function tokenColumns(f: TokenFields) {
  const d: Prisma.TokenUncheckedUpdateInput = {};
  if (f.name !== undefined) d.name = f.name.trim();
  if (f.remain_quota !== undefined) d.remain_quota = f.remain_quota;
  if (f.unlimited_quota !== undefined) d.unlimited_quota = f.unlimited_quota;
  if (f.expired_time !== undefined) d.expired_time = BigInt(f.expired_time);
  if (f.model_limits_enabled !== undefined) d.model_limits_enabled = f.model_limits_enabled;
  if (f.model_limits !== undefined) d.model_limits = f.model_limits;
  if (f.allow_ips !== undefined) {
    d.allow_ips = (f.allow_ips ?? "")
      .split(/\r?\n/)
      .map((s) => s.trim())
      .filter(Boolean)
      .join("\n");
  }
  if (f.group !== undefined) d.group = (f.group ?? "").trim();
  if (f.rate_limit_enabled !== undefined) d.rate_limit_enabled = f.rate_limit_enabled;
  if (f.rate_limit_period !== undefined) d.rate_limit_period = f.rate_limit_period;
  if (f.rate_limit_count !== undefined) d.rate_limit_count = f.rate_limit_count;
  if (f.rate_limit_success !== undefined) d.rate_limit_success = f.rate_limit_success;
  return d;
}
