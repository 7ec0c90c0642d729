// POST /api/token/{id}/key: the full key, for the owner's copy button.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { ownToken } from "@/lib/tokens/owned";
import { fullKey } from "@/lib/tokens/shared";
import { recordAudit } from "@/lib/audit/record";

export async function revealTokenKey({ ctx, input: id }: { ctx: UserCtx; input: number }) {
  const token = await ownToken(ctx.user, id);
  await recordAudit(ctx, { action: "token_key_reveal", target: { type: "token", id }, detail: { name: token.name } });
  return { key: fullKey(token) };
}
