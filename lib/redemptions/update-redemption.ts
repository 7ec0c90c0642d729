// PUT /api/redemption/ (admin): name, quota, validity and max uses of an unused code (status
// 1; the update is conditional on it, so a code redeemed meanwhile is not changed). With
// ?status_only=true only the status: 1 enables, 2 disables; a used code (3) keeps its status.
// Whether a code is a gift is fixed at creation.
import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { maxUsesRefusal, redemptionNameRefusal, validRangeRefusal, type UpdateRedemptionInput } from "@/lib/redemptions/field-rules";
import { assertAdmin, live, liveRedemption, redemptionView } from "@/lib/redemptions/shared";
import { REDEMPTION_STATUS } from "@/lib/statuses";

export async function updateRedemption({
  ctx,
  input: { fields, statusOnly },
}: {
  ctx: UserCtx;
  input: { fields: UpdateRedemptionInput; statusOnly: boolean };
}) {
  assertAdmin(ctx);
  const current = await liveRedemption(fields.id);
  if (statusOnly) {
    const status = fields.status;
    if (status !== REDEMPTION_STATUS.unused && status !== REDEMPTION_STATUS.disabled) throw new AppError("INVALID_INPUT", "invalid_parameter");
    const changed = await db().redemption.updateMany({ where: { id: current.id, ...live, status: { not: REDEMPTION_STATUS.used } }, data: { status } });
    if (changed.count !== 1) throw new AppError("RULE", "redemption_used_cannot_change");
    return redemptionView(await liveRedemption(current.id));
  }
  if (current.status !== REDEMPTION_STATUS.unused) throw new AppError("RULE", "redemption_edit_not_unused");
  const data: Prisma.RedemptionUpdateManyMutationInput = {};
  if (fields.name !== undefined) {
    const refusal = redemptionNameRefusal(fields.name);
    if (refusal) throw new AppError("INVALID_INPUT", refusal);
    data.name = fields.name.trim();
  }
  if (fields.quota !== undefined) data.quota = BigInt(fields.quota);
  const validFrom = fields.valid_from ?? Number(current.valid_from);
  const validUntil = fields.valid_until ?? Number(current.valid_until);
  const range = validRangeRefusal(validFrom, validUntil);
  if (range) throw new AppError("INVALID_INPUT", range);
  data.valid_from = BigInt(validFrom);
  data.valid_until = BigInt(validUntil);
  if (current.is_gift && fields.max_uses !== undefined) {
    const refusal = maxUsesRefusal(fields.max_uses, current.used_count);
    if (refusal) throw new AppError("INVALID_INPUT", refusal, { used: current.used_count });
    data.max_uses = fields.max_uses;
  }
  // Conditional on the state read: a code used or redeemed meanwhile is left as it is.
  const changed = await db().redemption.updateMany({
    where: { id: current.id, ...live, status: REDEMPTION_STATUS.unused, used_count: current.used_count },
    data,
  });
  if (changed.count !== 1) throw new AppError("RULE", "redemption_edit_not_unused");
  return redemptionView(await liveRedemption(current.id));
}
