// DELETE /api/token/{id}: soft deletion (deleted_at, status disabled); a deleted token never
// authenticates again.
import "server-only";
import { db } from "@/lib/db/client";
import { ownToken, type TokenActor } from "@/lib/tokens/owned";
import { tokensChanged } from "@/lib/tokens/shared";
import { nowSeconds } from "@/lib/time";
import { TOKEN_STATUS } from "@/lib/statuses";

export async function deleteToken({ ctx: { user: actor }, input: id }: { ctx: { user: TokenActor }; input: number }) {
  const t = await ownToken(actor, id);
  await db().token.update({ where: { id }, data: { deleted_at: BigInt(nowSeconds()), status: TOKEN_STATUS.disabled } });
  await tokensChanged(t.key_hash);
}
