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
import { recordAudit } from "@/lib/audit/record";

export async function finishPasskeyLogin({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { response: AuthenticationResponseJSON };
}): Promise<{ user: PublicUser; cookies: string[] }> {
  if (!getBool("PasskeyLoginEnabled")) throw new AppError("RULE", "passkey_login_disabled");
  let userId: number;
  try {
    userId = await finishAssertion(ctx.headers, "passkey_login", 0, input.response);
  } catch (err) {
    await recordAudit(ctx, { action: "login_failed", actor: null, detail: { method: "passkey", reason: "passkey_invalid" } });
    throw err;
  }
  const user = await db().user.findUnique({ where: { id: userId } });
  if (!user || user.deleted_at !== null || user.status !== USER_STATUS.enabled) {
    const reason = !user ? "passkey_unknown" : user.deleted_at !== null ? "deregistered" : "banned";
    await recordAudit(ctx, {
      action: "login_failed",
      actor: null,
      userId: user?.id ?? 0,
      target: user ? { type: "user", id: user.id } : undefined,
      detail: { method: "passkey", reason },
    });
    throw new AppError("RULE", reason === "banned" ? "user_banned" : "passkey_unknown");
  }
  const updated = await db().user.update({ where: { id: user.id }, data: { last_login_time: BigInt(nowSeconds()), language: ctx.locale } });
  const cookies = [await startSession(ctx, updated), clearChallengeCookie(ctx.https)];
  await recordAudit(ctx, { action: "login", actor: updated, target: { type: "user", id: updated.id }, detail: { method: "passkey" } });
  return { user: presentUser(updated), cookies };
}
