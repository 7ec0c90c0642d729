// POST /api/redemption/ (admin): `count` codes (1..100) with the same name, quota, validity
// and gift settings; or one code the admin typed (`key`). An empty name becomes the quota as
// the console shows it. Answers the codes in full, the only time they can be read.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { serverQuotaDisplay } from "@/lib/options/quota-display";
import {
  customKeyRefusal,
  DEFAULT_REDEMPTION_QUOTA,
  defaultRedemptionName,
  maxUsesRefusal,
  redemptionCountRefusal,
  redemptionNameRefusal,
  validRangeRefusal,
  type CreateRedemptionInput,
} from "@/lib/redemptions/field-rules";
import { assertAdmin, codeHash, codeHint, newCode } from "@/lib/redemptions/shared";
import { isUniqueViolation, TX_OPTIONS } from "@/lib/users/db-errors";
import { nowSeconds } from "@/lib/time";
import { recordAudit } from "@/lib/audit/record";

export async function createRedemptions({ ctx, input }: { ctx: UserCtx; input: CreateRedemptionInput }): Promise<string[]> {
  assertAdmin(ctx);
  const quota = input.quota ?? DEFAULT_REDEMPTION_QUOTA;
  const count = input.count ?? 1;
  const countRefusal = redemptionCountRefusal(count);
  if (countRefusal) throw new AppError("INVALID_INPUT", countRefusal);
  let name = input.name?.trim() ?? "";
  if (!name) name = defaultRedemptionName(quota, serverQuotaDisplay());
  const nameRefusal = redemptionNameRefusal(name);
  if (nameRefusal) throw new AppError("INVALID_INPUT", nameRefusal);
  const validFrom = input.valid_from ?? 0;
  const validUntil = input.valid_until ?? 0;
  const range = validRangeRefusal(validFrom, validUntil);
  if (range) throw new AppError("INVALID_INPUT", range);
  const isGift = input.is_gift ?? false;
  const maxUses = isGift ? (input.max_uses ?? 1) : 1;
  const uses = maxUsesRefusal(maxUses);
  if (uses) throw new AppError("INVALID_INPUT", uses);
  const custom = input.key?.trim() ?? "";
  if (custom) {
    const keyRefusal = customKeyRefusal(custom, count);
    if (keyRefusal) throw new AppError("INVALID_INPUT", keyRefusal);
  }
  const now = BigInt(nowSeconds());
  const codes = custom ? [custom] : Array.from({ length: count }, newCode);
  try {
    await db().$transaction(async (tx) => {
      for (const code of codes) {
        await tx.redemption.create({
          data: {
            user_id: ctx.user.id,
            key: codeHash(code),
            key_hint: codeHint(code),
            name,
            quota: BigInt(quota),
            is_gift: isGift,
            max_uses: maxUses,
            valid_from: BigInt(validFrom),
            valid_until: BigInt(validUntil),
            created_time: now,
          },
        });
      }
    }, TX_OPTIONS);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("RULE", "redemption_key_exists");
    throw err;
  }
  // the batch, never its codes (docs/audit.md)
  await recordAudit(ctx, {
    action: "redemption_create",
    target: { type: "redemption", id: name },
    detail: {
      name,
      count: codes.length,
      quota,
      is_gift: isGift,
      max_uses: maxUses,
      custom_key: Boolean(custom),
      valid_from: validFrom,
      valid_until: validUntil,
    },
  });
  return codes;
}
