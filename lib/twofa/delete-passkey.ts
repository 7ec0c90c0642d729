// DELETE /api/user/passkey/{id}: removes one of the caller's passkeys (another user's answers
// not found); with a fresh second factor, as every sensitive action.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { requireFreshFactor } from "@/lib/twofa/fresh";
import { recordAudit } from "@/lib/audit/record";

export async function deletePasskey({ ctx, input }: { ctx: UserCtx; input: { id: number } }): Promise<void> {
  // Removing a factor is a sensitive action (docs/two-factor.md, "Sensitive actions").
  await requireFreshFactor(ctx);
  const passkey = await db().passkey.findFirst({ where: { id: input.id, user_id: ctx.user.id }, select: { name: true } });
  const done = await db().passkey.deleteMany({ where: { id: input.id, user_id: ctx.user.id } });
  if (done.count !== 1) throw new AppError("NOT_FOUND", "passkey_not_found");
  await recordAudit(ctx, { action: "passkey_remove", userId: ctx.user.id, target: { type: "passkey", id: input.id }, detail: { name: passkey?.name ?? "" } });
}
