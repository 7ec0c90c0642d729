// POST /api/user/passkey/login/finish {response}: signs in with a passkey (a full sign-in:
// the passkey is possession and user verification at once; docs/two-factor.md, "Passkeys").
// The same refusals as the password login: a deleted account is unknown, a banned one is told.
import "server-only";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { Ctx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getBool } from "@/lib/options/store";
import { clearChallengeCookie, finishAssertion } from "@/lib/twofa/passkeys";
import { presentUser, type PublicUser } from "@/lib/users/present";
import { startSession } from "@/lib/sessions/start";
import { nowSeconds } from "@/lib/time";
import { USER_STATUS } from "@/lib/statuses";

export async function finishPasskeyLogin({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { response: AuthenticationResponseJSON };
}): Promise<{ user: PublicUser; cookies: string[] }> {
  if (!getBool("PasskeyLoginEnabled")) throw new AppError("RULE", "passkey_login_disabled");
  const userId = await finishAssertion(ctx.headers, "passkey_login", 0, input.response);
  const user = await db().user.findUnique({ where: { id: userId } });
  if (!user || user.deleted_at !== null) throw new AppError("RULE", "passkey_unknown");
  if (user.status !== USER_STATUS.enabled) throw new AppError("RULE", "user_banned");
  const updated = await db().user.update({ where: { id: user.id }, data: { last_login_time: BigInt(nowSeconds()), language: ctx.locale } });
  return { user: presentUser(updated), cookies: [await startSession(ctx, updated), clearChallengeCookie(ctx.https)] };
}
