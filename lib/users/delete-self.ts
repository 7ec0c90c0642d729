// A user deregisters their own account: deleted_at set and the personal data erased
// (lib/users/erase-account.ts), in one transaction. The username is free again. The super
// admin cannot delete itself.
import "server-only";
import { isRoot } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/http/route";
import { requireFreshFactor } from "@/lib/twofa/fresh";
import { endUserSessions } from "@/lib/sessions/end";
import { userChanged } from "@/lib/users/changed";
import { eraseAccount } from "@/lib/users/erase-account";
import { transactionWithLogs } from "@/lib/logs/in-transaction";
import { nowSeconds } from "@/lib/time";
import { recordAudit } from "@/lib/audit/record";

export async function deleteSelf({ ctx }: { ctx: UserCtx }): Promise<void> {
  if (isRoot(ctx.user.role)) throw new AppError("RULE", "root_cannot_delete_self");
  // A fresh second factor when the user has one (docs/two-factor.md, "Sensitive actions").
  await requireFreshFactor(ctx);
  const now = BigInt(nowSeconds());
  await transactionWithLogs(async (tx) => {
    const changed = await tx.user.updateMany({ where: { id: ctx.user.id, deleted_at: null }, data: { deleted_at: now, access_token_hash: null } });
    if (changed.count === 1) await eraseAccount(tx, ctx.user.id, now);
  });
  await userChanged(ctx.user.id);
  await recordAudit(ctx, { action: "user_delete", target: { type: "user", id: ctx.user.id }, detail: { by: "self" } });
  await endUserSessions(ctx.user.id, { ctx, actorId: ctx.user.id, reason: "deleted" });
}
