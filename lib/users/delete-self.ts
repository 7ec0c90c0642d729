// A user deregisters their own account: a soft delete (deleted_at set, access token
// revoked). The username stays taken. The super admin cannot delete itself.
import { isRoot } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { nowSeconds } from "@/lib/billing/ledger";
import type { UserCtx } from "@/lib/http/route";
import { userChanged } from "@/lib/users/changed";

export async function deleteSelf({ ctx }: { ctx: UserCtx }): Promise<void> {
  if (isRoot(ctx.user.role)) throw new AppError("RULE", "root_cannot_delete_self");
  await db().user.updateMany({
    where: { id: ctx.user.id, deleted_at: null },
    data: { deleted_at: BigInt(nowSeconds()), access_token_hash: null },
  });
  await userChanged(ctx.user.id);
}
