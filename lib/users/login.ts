// Password login by username or e-mail. Every failure that could tell whether an account
// exists (unknown, wrong password, deregistered) answers the same login_failed; a banned
// account that gave the right password is told it is banned. A login records the console's
// language, in which the user's notifications are written (docs/notifications.md). A user
// with TOTP on gets no session yet: a pending step bound to the browser by a cookie, which
// POST /api/user/login/2fa completes with a code (docs/two-factor.md, "Sign-in").
import "server-only";
import { verifyPassword } from "@/lib/auth/password";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Ctx } from "@/lib/http/route";
import { getBool } from "@/lib/options/store";
import { passwordVersion } from "@/lib/auth/session";
import { startSession } from "@/lib/sessions/start";
import { createChallenge, CHALLENGE_TTL_SECONDS } from "@/lib/twofa/challenges";
import { PENDING_LOGIN_COOKIE, setCookie } from "@/lib/twofa/cookies";
import { totpEnabled } from "@/lib/twofa/factor";
import { presentUser, type PublicUser } from "@/lib/users/present";
import { nowSeconds } from "@/lib/time";
import { USER_STATUS } from "@/lib/statuses";
import { recordAudit } from "@/lib/audit/record";
import type { LoginFailure } from "@/lib/audit/actions";

// A fixed scrypt hash to verify against when the account is unknown, so that the answer
// takes as long as for a known account.
const DUMMY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

export type LoginResult = { user: PublicUser; cookie: string; require2fa?: undefined } | { require2fa: true; cookie: string };

export async function login({ ctx, input }: { ctx: Ctx; input: { username: string; password: string } }): Promise<LoginResult> {
  if (!getBool("PasswordLoginEnabled")) throw new AppError("RULE", "password_login_disabled");
  const name = input.username.trim();
  let user = await db().user.findUnique({ where: { username: name } });
  if (!user && name.includes("@")) {
    // Addresses are unique by their lowercased key (docs/accounts-api.md, "E-mail addresses").
    user = await db().user.findFirst({ where: { email_key: name.toLowerCase(), deleted_at: null } });
  }
  const ok = await verifyPassword(input.password, user?.password ?? DUMMY_HASH);
  // the audit row tells the root why (docs/audit.md); the caller is told only login_failed. The
  // name typed for an unknown account is not written: it is sometimes a password typed in the
  // wrong field.
  const refused = async (reason: LoginFailure, key: "login_failed" | "user_banned") => {
    await recordAudit(ctx, {
      action: "login_failed",
      actor: null,
      userId: user?.id ?? 0,
      target: user ? { type: "user", id: user.id } : undefined,
      detail: { method: "password", reason },
    });
    return new AppError("RULE", key);
  };
  if (!user) throw await refused("unknown_user", "login_failed");
  if (!ok) throw await refused("wrong_password", "login_failed");
  if (user.deleted_at !== null) throw await refused("deregistered", "login_failed");
  if (user.status !== USER_STATUS.enabled) throw await refused("banned", "user_banned");
  if (await totpEnabled(user.id)) {
    // The step remembers the password version: a password change meanwhile voids it.
    const id = await createChallenge("login_2fa", user.id, passwordVersion(user.password));
    await recordAudit(ctx, { action: "login_2fa_required", actor: user, target: { type: "user", id: user.id }, detail: { method: "password" } });
    return { require2fa: true, cookie: setCookie(PENDING_LOGIN_COOKIE, id, CHALLENGE_TTL_SECONDS.login_2fa, ctx.https) };
  }
  const updated = await db().user.update({ where: { id: user.id }, data: { last_login_time: BigInt(nowSeconds()), language: ctx.locale } });
  const cookie = await startSession(ctx, updated);
  await recordAudit(ctx, { action: "login", actor: updated, target: { type: "user", id: updated.id }, detail: { method: "password" } });
  return { user: presentUser(updated), cookie };
}
