// A passkey as the fresh second factor of a sensitive action: POST
// /api/user/passkey/verify/begin answers the request options for the caller's passkeys;
// /verify/finish {response} checks the assertion and sets the twofa_fresh cookie.
import "server-only";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { UserCtx } from "@/lib/ctx";
import { freshCookieFor } from "@/lib/twofa/cookies";
import { beginAssertion, clearChallengeCookie, finishAssertion } from "@/lib/twofa/passkeys";

export async function beginPasskeyVerify({ ctx }: { ctx: UserCtx }) {
  return beginAssertion("passkey_verify", ctx.user.id, ctx.https);
}

export async function finishPasskeyVerify({ ctx, input }: { ctx: UserCtx; input: { response: AuthenticationResponseJSON } }): Promise<{ cookies: string[] }> {
  await finishAssertion(ctx.headers, "passkey_verify", ctx.user.id, input.response);
  return { cookies: [await freshCookieFor(ctx.user, ctx.https), clearChallengeCookie(ctx.https)] };
}
