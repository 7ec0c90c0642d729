// Admin actions on a user (promote, demote, disable, enable, delete) under the rules of
// docs/product-rules.md, "Accounts" (lib/users/rules.ts). Delete keeps the row and erases the
// personal data (lib/users/erase-account.ts). The update is
// conditional on the role and status the rules were checked against, so that two
// concurrent actions cannot combine into something neither would allow.
import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/http/route";
import { planManage, type ManageAction } from "@/lib/users/rules";
import { endUserSessions } from "@/lib/sessions/end";
import { USER_STATUS } from "@/lib/statuses";
import { userChanged } from "@/lib/users/changed";
import { eraseAccount } from "@/lib/users/erase-account";
import { transactionWithLogs } from "@/lib/logs/in-transaction";
import { nowSeconds } from "@/lib/time";
import { recordAudit } from "@/lib/audit/record";

// the audit action of each manage action (docs/audit.md)
const MANAGE_ACTION = { promote: "role_change", demote: "role_change", disable: "user_disable", enable: "user_enable", delete: "user_delete" } as const;

export async function manageUser({ ctx, input }: { ctx: UserCtx; input: { id: number; action: ManageAction } }) {
  const target = await db().user.findUnique({ where: { id: input.id } });
  if (!target) throw new AppError("NOT_FOUND", "user_not_found");
  const plan = planManage(ctx.user, target, input.action);
  if ("refuse" in plan) throw new AppError("RULE", plan.refuse);
  const now = BigInt(nowSeconds());
  await transactionWithLogs(async (tx) => {
    const changed = await tx.user.updateMany({
      where: { id: target.id, role: target.role, status: target.status, deleted_at: null },
      // a role change drops a stored permission set: a promoted admin starts at the default set
      // (docs/permissions.md)
      data: plan.delete
        ? { deleted_at: now, access_token_hash: null }
        : plan.role !== target.role
          ? { role: plan.role, status: plan.status, permissions: null }
          : { role: plan.role, status: plan.status },
    });
    if (changed.count !== 1) throw new AppError("RULE", "user_changed_concurrently");
    if (plan.delete) await eraseAccount(tx, target.id, now);
  });
  await userChanged(target.id);
  await recordAudit(ctx, {
    action: MANAGE_ACTION[input.action],
    target: { type: "user", id: target.id },
    detail: plan.delete
      ? { username: target.username }
      : { username: target.username, role_from: target.role, role_to: plan.role, status_from: target.status, status_to: plan.status },
  });
  // a ban or a deletion ends every session of the user on every node (docs/accounts-api.md, "Sessions")
  if (plan.delete || (plan.status !== USER_STATUS.enabled && target.status === USER_STATUS.enabled)) {
    await endUserSessions(target.id, { ctx, actorId: ctx.user.id, reason: plan.delete ? "deleted" : "banned" });
  }
  return { status: plan.status, role: plan.role };
}
