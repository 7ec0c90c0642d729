// GET /api/usage/limits?token_id= or ?token_ids= (docs/api-reference.md, "Usage limits"): what
// the signed-in user's own tokens use of its limits and of its user's, as the token itself would
// be answered (the console's token drawer and list, docs/console-ui.md "Limits").
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { limitArray } from "@/lib/limits/engine";
import { listUsageLimits } from "@/lib/limits/usage";
import type { Ctx } from "@/lib/ctx";
import { authenticateToken } from "@/lib/relay/token-cache";
import { db } from "@/lib/db/client";
import { liveTokensOf, ownToken } from "@/lib/tokens/owned";

export async function tokenUsageLimits({ ctx, input }: { ctx: UserCtx; input: { tokenId: number } }) {
  const token = await ownToken(ctx.user, input.tokenId); // another user's token is not found
  const caller = { userId: ctx.user.id, group: ctx.user.group, userLimits: limitArray(ctx.user), token: { id: token.id, limits: limitArray(token) } };
  return listUsageLimits({ ctx, input: { caller } });
}

/**
 * GET /api/usage/limits?token_ids=1,2,3: the same for several of the caller's tokens in one
 * call (the token list), `[{token_id, limits}]` in the order asked; a token that is not the
 * caller's (or deleted) is left out.
 */
export async function tokensUsageLimits({ ctx, input }: { ctx: UserCtx; input: { tokenIds: number[] } }) {
  const tokens = await db().token.findMany({ where: { id: { in: input.tokenIds }, ...liveTokensOf(ctx.user.id) } });
  const byId = new Map(tokens.map((t) => [t.id, t]));
  const userLimits = limitArray(ctx.user);
  const owned = input.tokenIds.flatMap((id) => byId.get(id) ?? []);
  return Promise.all(
    owned.map(async (token) => ({
      token_id: token.id,
      limits: await listUsageLimits({
        ctx,
        input: { caller: { userId: ctx.user.id, group: ctx.user.group, userLimits, token: { id: token.id, limits: limitArray(token) } } },
      }),
    })),
  );
}

/** GET /api/usage/limits with `Authorization: Bearer sk-...`: the relay token's limits and its user's, the token checked as the relay checks it. */
export async function relayTokenUsageLimits({ ctx, input }: { ctx: Ctx; input: { authorization: string } }) {
  const t = await authenticateToken(input.authorization, { ip: ctx.ip });
  const caller = { userId: t.user.id, group: t.user.group, userLimits: t.user.limits, token: { id: t.token.id, limits: t.token.limits } };
  return listUsageLimits({ ctx, input: { caller } });
}
