// What creating and updating a token share: the checks on the fields given and their
// column values (absent fields are left alone).
import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import { AppError } from "@/lib/errors";
import { canUseGroup } from "@/lib/billing/groups";
import { expiryRefusal, quotaRefusal, tokenNameRefusal, type TokenFields } from "@/lib/tokens/field-rules";
import type { TokenActor } from "@/lib/tokens/owned";
import { limitColumns } from "@/lib/limits/fields";

export function checkTokenFields(actor: TokenActor, f: TokenFields, now: number) {
  // An empty name is refused by the verbs (an update may leave the name out).
  const name = f.name === undefined ? null : tokenNameRefusal(f.name);
  if (name && name !== "token_name_required") throw new AppError("INVALID_INPUT", name);
  const quota = f.remain_quota === undefined ? null : quotaRefusal(f.remain_quota);
  if (quota) throw new AppError("INVALID_INPUT", quota);
  const expiry = f.expired_time === undefined ? null : expiryRefusal(f.expired_time, now);
  if (expiry) throw new AppError("INVALID_INPUT", expiry);
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
  Object.assign(d, limitColumns(f));
  return d;
}
