// GET /api/oauth/state: a new sign-in state for this browser (lib/oauth/state.ts); a bind
// when the caller is signed in, which asks for a fresh second factor when the user has one
// (docs/two-factor.md, "Sensitive actions"). `aff` is kept with it for a sign-up.
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { optionalSessionUser } from "@/lib/http/auth";
import { newState, type IssuedState } from "@/lib/oauth/state";
import { requireFreshFactor } from "@/lib/twofa/fresh";

export async function issueState({ ctx, input }: { ctx: Ctx; input: { aff: string } }): Promise<IssuedState> {
  const user = await optionalSessionUser(ctx.headers);
  if (user) await requireFreshFactor(Object.assign({}, ctx, { user }));
  return newState({ headers: ctx.headers, https: ctx.https, userId: user?.id ?? 0, aff: input.aff });
}
