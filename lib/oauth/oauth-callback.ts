// GET /api/oauth/{provider}?code=&state=: the end of a GitHub, OIDC, LINUX DO or IDC Flare
// sign-in. The state is used first (single use, this browser); a state issued to a signed-in
// user is a bind, which only that user's session can finish, with a fresh second factor when
// the user has one (docs/two-factor.md, "Sensitive actions").
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { optionalSessionUser } from "@/lib/http/auth";
import { getBool } from "@/lib/options/store";
import { exchangeCode } from "@/lib/oauth/exchange";
import { ENABLED_OPTION, type RedirectProvider } from "@/lib/oauth/providers";
import { signInWith, type SignInResult } from "@/lib/oauth/sign-in";
import { consumeState } from "@/lib/oauth/state";
import { requireFreshFactor } from "@/lib/twofa/fresh";

export async function oauthCallback({ ctx, input }: { ctx: Ctx; input: { provider: RedirectProvider; code: string; state: string } }): Promise<SignInResult> {
  if (!getBool(ENABLED_OPTION[input.provider])) throw new AppError("RULE", "oauth_provider_disabled");
  const { userId, aff } = await consumeState(ctx.headers, input.state);
  if (userId) {
    const me = await optionalSessionUser(ctx.headers);
    if (!me || me.id !== userId) throw new AppError("RULE", "oauth_state_invalid");
    // A bind adds a way into the account: a fresh second factor when the user has one.
    await requireFreshFactor(Object.assign({}, ctx, { user: me }));
  }
  const identity = await exchangeCode(input.provider, input.code, input.state);
  return signInWith(ctx, input.provider, identity, { bindUserId: userId, aff });
}
