// DELETE /api/token/{id}: soft deletion (deleted_at, status disabled); a deleted token never
// authenticates again.
import "server-only";
import { db } from "@/lib/db/client";
import type { UserCtx } from "@/lib/ctx";
import { ownToken } from "@/lib/tokens/owned";
import { tokensChanged } from "@/lib/tokens/shared";
import { nowSeconds } from "@/lib/time";
import { TOKEN_STATUS } from "@/lib/statuses";
import { recordAudit } from "@/lib/audit/record";

export async function deleteToken({ ctx, input: id }: { ctx: UserCtx; input: number }) {
  const t = await ownToken(ctx.user, id);
  await db().token.update({ where: { id }, data: { deleted_at: BigInt(nowSeconds()), status: TOKEN_STATUS.disabled } });
  await tokensChanged(t.key_hash);
  await recordAudit(ctx, { action: "token_delete", target: { type: "token", id }, detail: { name: t.name } });
}
