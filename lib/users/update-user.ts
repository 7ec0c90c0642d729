// An admin edits a user of a strictly lower level (the root: anyone). A blank password
// keeps the current one. A new quota is applied as a ledger delta (new - old) computed
// and written inside one transaction: the row is re-read and updated only if its quota is
// still the value the delta was computed from, so a concurrent change is never overwritten.
import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import { hashPassword } from "@/lib/auth/password";
import { hasPermission } from "@/lib/auth/permissions";
import { endUserSessions } from "@/lib/sessions/end";
import { changeUserQuota } from "@/lib/billing/ledger";
import { db } from "@/lib/db/client";
import { emailKey } from "@/lib/users/email-rules";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/http/route";
import { isUniqueViolation, TX_OPTIONS } from "@/lib/users/db-errors";
import { presentUser } from "@/lib/users/present";
import { accessRefusal } from "@/lib/users/rules";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/users/schemas";
import { userChanged } from "@/lib/users/changed";
import { createLogRow, transactionWithLogs } from "@/lib/logs/in-transaction";
import { logMessage } from "@/lib/logs/messages";
import { nowSeconds } from "@/lib/time";
import { limitColumns, type LimitInput } from "@/lib/limits/fields";
import { recordAudit } from "@/lib/audit/record";

// Log type 3: an admin action on a user (docs/product-rules.md, "Prices, quota of a call, usage logs").
const LOG_TYPE_ADMIN = 3;

export type UpdateUserInput = {
  id: number;
  username?: string;
  display_name?: string;
  password?: string;
  group?: string;
  quota?: number;
  email?: string;
  remark?: string;
} & LimitInput;

export async function updateUser({ ctx, input }: { ctx: UserCtx; input: UpdateUserInput }) {
  const target = await db().user.findUnique({ where: { id: input.id } });
  if (!target) throw new AppError("NOT_FOUND", "user_not_found");
  const refusal = accessRefusal(ctx.user, target);
  if (refusal) throw new AppError("RULE", refusal);

  const data: Prisma.UserUpdateInput = {};
  if (input.username !== undefined && input.username !== target.username) data.username = input.username;
  if (input.display_name !== undefined) data.display_name = input.display_name;
  if (input.group !== undefined) data.group = input.group;
  if (input.email !== undefined && input.email !== target.email) {
    // An admin may set any address, but not one another account holds (docs/accounts-api.md).
    const key = emailKey(input.email);
    if (key && (await db().user.findFirst({ where: { email_key: key, id: { not: target.id } }, select: { id: true } }))) {
      throw new AppError("RULE", "email_taken");
    }
    data.email = input.email;
    data.email_key = key;
  }
  if (input.remark !== undefined) data.remark = input.remark;
  // usage limits (docs/usage-limits.md): 0 = the group's default, -1 = none
  Object.assign(data, limitColumns(input));
  if (input.password) {
    if (input.password.length < PASSWORD_MIN) throw new AppError("INVALID_INPUT", "password_too_short");
    if (input.password.length > PASSWORD_MAX) throw new AppError("INVALID_INPUT", "password_too_long");
    data.password = await hashPassword(input.password);
  }
  // the quota moved, for its audit row after the commit (the cast keeps TypeScript from
  // narrowing it to null: it is set inside the transaction's callback)
  let quotaMove = null as { from: number; to: number; delta: number } | null;
  try {
    const user = await transactionWithLogs(async (tx) => {
      if (Object.keys(data).length) await tx.user.update({ where: { id: target.id }, data });
      if (input.quota !== undefined) {
        const { quota: old } = await tx.user.findUniqueOrThrow({ where: { id: target.id }, select: { quota: true } });
        const delta = BigInt(input.quota) - old;
        if (delta !== 0n) {
          // a quota change asks for users:quota beside users:write (docs/permissions.md); the
          // editor sends the unchanged quota with every save, so only a change is refused
          if (!hasPermission(ctx.user, "users:quota")) throw new AppError("FORBIDDEN", "quota_change_not_permitted");
          // Pin the old value: if another transaction changed the balance since we read it,
          // refuse instead of applying a delta computed from a stale balance.
          const pinned = await tx.user.updateMany({ where: { id: target.id, quota: old }, data: { quota: old } });
          if (pinned.count !== 1) throw new AppError("RULE", "quota_changed_concurrently");
          quotaMove = { from: Number(old), to: input.quota, delta: Number(delta) };
          await changeUserQuota(tx, { userId: target.id, delta, kind: "admin_adjust", ref: `admin:${ctx.user.id}` });
          await createLogRow(tx, {
            user_id: target.id,
            username: target.username,
            created_at: BigInt(nowSeconds()),
            type: LOG_TYPE_ADMIN,
            quota: delta,
            content: `admin ${ctx.user.username} (#${ctx.user.id}) set quota from ${old} to ${input.quota}`,
            ip: ctx.ip,
            other: JSON.stringify({ message: logMessage("admin_set_quota", { admin: ctx.user.username, admin_id: ctx.user.id, from: old, to: input.quota }) }),
          });
        }
      }
      return tx.user.findUniqueOrThrow({ where: { id: target.id } });
    }, TX_OPTIONS);
    await userChanged(target.id);
    const userTarget = { type: "user" as const, id: target.id };
    // the names of the fields changed, never their values where they are credentials (docs/audit.md)
    const fields = Object.keys(data).filter((k) => k !== "password" && k !== "email_key");
    if (fields.length) await recordAudit(ctx, { action: "user_update", target: userTarget, detail: { username: user.username, fields } });
    if (data.password) await recordAudit(ctx, { action: "password_change", target: userTarget, detail: { by: "admin" } });
    if (quotaMove) await recordAudit(ctx, { action: "quota_change", target: userTarget, detail: quotaMove });
    // a password set by an admin ends every session of the user (docs/accounts-api.md, "Sessions")
    if (data.password) await endUserSessions(target.id, { ctx, actorId: ctx.user.id, reason: "password_changed" });
    return presentUser(user);
  } catch (err) {
    if (isUniqueViolation(err)) {
      const key = data.email_key ? String(data.email_key) : null;
      if (key && (await db().user.findFirst({ where: { email_key: key, id: { not: target.id } }, select: { id: true } }))) {
        throw new AppError("RULE", "email_taken");
      }
      throw new AppError("RULE", "username_taken");
    }
    throw err;
  }
}
