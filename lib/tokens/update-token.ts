// PUT /api/token/: the fields given (statusOnly: ?status_only=true, which changes the status
// alone). An expired or exhausted token cannot be enabled.
import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { checkTokenFields, tokenColumns } from "@/lib/tokens/fields";
import { ownToken, type TokenActor } from "@/lib/tokens/owned";
import type { TokenFields } from "@/lib/tokens/schemas";
import { isExhausted, isExpired, tokenView, tokensChanged } from "@/lib/tokens/shared";
import { nowSeconds } from "@/lib/time";
import { TOKEN_STATUS } from "@/lib/statuses";

export async function updateToken({
  ctx: { user: actor },
  input: { fields: input, statusOnly },
}: {
  ctx: { user: TokenActor };
  input: { fields: TokenFields & { id: number; status?: number }; statusOnly: boolean };
}) {
  const now = nowSeconds();
  const current = await ownToken(actor, input.id);
  const changes: Prisma.TokenUncheckedUpdateInput = {};
  if (!statusOnly) {
    if (input.name !== undefined && !input.name.trim()) throw new AppError("INVALID_INPUT", "token_name_required");
    // The drawer resends the stored expiry with every edit: an unchanged expiry is not a
    // change, so a token that has already expired can still be renamed or given a new expiry.
    const fields: TokenFields = Object.assign({}, input);
    if (fields.expired_time !== undefined && BigInt(fields.expired_time) === current.expired_time) delete fields.expired_time;
    checkTokenFields(actor, fields, now);
    Object.assign(changes, tokenColumns(fields));
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
