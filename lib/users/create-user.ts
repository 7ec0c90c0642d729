// An admin creates a user, with a role strictly below their own.
import "server-only";
import { hashPassword } from "@/lib/auth/password";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/http/route";
import { newAffCode } from "@/lib/users/aff-code";
import { isUniqueViolation } from "@/lib/users/db-errors";
import { presentUser } from "@/lib/users/present";
import { canCreateRole } from "@/lib/users/rules";
import { nowSeconds } from "@/lib/time";
import { USER_STATUS } from "@/lib/statuses";
import { recordAudit } from "@/lib/audit/record";

export async function createUser({ ctx, input }: { ctx: UserCtx; input: { username: string; password: string; display_name: string; role: number } }) {
  if (!canCreateRole(ctx.user.role, input.role)) throw new AppError("RULE", "cannot_create_equal_or_higher");
  if (await db().user.findUnique({ where: { username: input.username }, select: { id: true } })) {
    throw new AppError("RULE", "username_taken");
  }
  const hash = await hashPassword(input.password);
  for (let attempt = 0; ; attempt++) {
    try {
      const user = await db().user.create({
        data: {
          username: input.username,
          password: hash,
          display_name: input.display_name || input.username,
          role: input.role,
          status: USER_STATUS.enabled,
          aff_code: newAffCode(),
          created_time: BigInt(nowSeconds()),
        },
      });
      await recordAudit(ctx, { action: "user_create", target: { type: "user", id: user.id }, detail: { username: user.username, role: user.role } });
      return presentUser(user);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const taken = await db().user.findUnique({ where: { username: input.username }, select: { id: true } });
      if (taken || attempt >= 2) throw new AppError("RULE", "username_taken");
    }
  }
}
