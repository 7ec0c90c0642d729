// Invitation: the caller's code, and moving invitation earnings (aff_quota) into the
// balance. The earnings are decremented conditionally (never below zero) and the balance
// credited through the ledger, in one transaction.
import "server-only";
import { changeUserQuota } from "@/lib/billing/ledger";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/http/route";
import { getBool, getNumber } from "@/lib/options/store";
import { TX_OPTIONS } from "@/lib/users/db-errors";

// With AffEnabled off invitations do not exist: no code is handed out and no earnings move
// (registration ignores a code too, lib/users/register.ts).
function requireAffEnabled() {
  if (!getBool("AffEnabled")) throw new AppError("RULE", "aff_disabled");
}

export async function getAffCode({ ctx }: { ctx: UserCtx }): Promise<string> {
  requireAffEnabled();
  return ctx.user.aff_code;
}

export async function transferAffQuota({ ctx, input }: { ctx: UserCtx; input: { quota: number } }): Promise<void> {
  requireAffEnabled();
  const min = Math.max(1, Math.trunc(getNumber("QuotaPerUnit", 500000)));
  if (input.quota < min) throw new AppError("RULE", "aff_transfer_min", { min });
  const amount = BigInt(input.quota);
  await db().$transaction(async (tx) => {
    const taken = await tx.user.updateMany({
      where: { id: ctx.user.id, deleted_at: null, aff_quota: { gte: amount } },
      data: { aff_quota: { decrement: amount } },
    });
    if (taken.count !== 1) throw new AppError("RULE", "aff_quota_insufficient");
    await changeUserQuota(tx, { userId: ctx.user.id, delta: amount, kind: "aff_transfer" });
  }, TX_OPTIONS);
}
