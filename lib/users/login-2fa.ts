// POST /api/user/login/2fa {code}: completes a password login of a user with TOTP on
// (docs/two-factor.md, "Sign-in"). The pending step is the one this browser's cookie names,
// live for five minutes, and allows PENDING_MAX_ATTEMPTS wrong codes (plus the per-user
// window of lib/twofa/factor.ts); the right code consumes it once and opens the session.
// The step is consumed and the code spent in one transaction, the step first: of requests
// racing on one step, exactly one gets past the consumption, and only its code is spent (a
// code spent by a request that then lost the step would be gone with no session opened).
import "server-only";
import { passwordVersion } from "@/lib/auth/session";
import { startSession } from "@/lib/sessions/start";
import type { Ctx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError, isAppError } from "@/lib/errors";
import { TX_OPTIONS } from "@/lib/users/db-errors";
import { consumeChallenge, countFailedAttempt, findChallenge } from "@/lib/twofa/challenges";
import { PENDING_LOGIN_COOKIE, clearCookie, readCookie } from "@/lib/twofa/cookies";
import { countAttempt, spendUncounted } from "@/lib/twofa/factor";
import { presentUser, type PublicUser } from "@/lib/users/present";
import { nowSeconds } from "@/lib/time";
import { USER_STATUS } from "@/lib/statuses";
import { recordAudit } from "@/lib/audit/record";
import type { LoginFailure } from "@/lib/audit/actions";

export async function completeTwoFactorLogin({ ctx, input }: { ctx: Ctx; input: { code: string } }): Promise<{ user: PublicUser; cookies: string[] }> {
  const step = await findChallenge(readCookie(ctx.headers, PENDING_LOGIN_COOKIE), "login_2fa");
  if (!step) throw new AppError("RULE", "twofa_login_expired");
  const user = await db().user.findUnique({ where: { id: step.user_id } });
  if (!user || user.deleted_at !== null || passwordVersion(user.password) !== step.challenge) throw new AppError("RULE", "twofa_login_expired");
  const refused = (reason: LoginFailure) =>
    recordAudit(ctx, { action: "login_failed", actor: null, target: { type: "user", id: user.id }, detail: { method: "two_factor", reason } });
  // Counted outside the transaction, so that a refused code still counts.
  await countAttempt(user.id);
  try {
    await db().$transaction(async (tx) => {
      // The conditional delete takes the step's row: a concurrent request waits here (the row
      // lock on PostgreSQL, the single writer on SQLite) and then finds nothing to delete,
      // before it looks at its code. A wrong code rolls the delete back: the step stays.
      if (!(await consumeChallenge(step.id, tx))) throw new AppError("RULE", "twofa_login_expired");
      await spendUncounted(tx, user.id, input.code);
    }, TX_OPTIONS);
  } catch (err) {
    if (isAppError(err) && err.key === "twofa_code_invalid") {
      await refused("twofa_code_invalid");
      if (!(await countFailedAttempt(step.id))) throw new AppError("RULE", "twofa_login_expired");
    } else if (isAppError(err) && err.key === "twofa_login_expired") await refused("twofa_step_expired");
    throw err;
  }
  if (user.status !== USER_STATUS.enabled) {
    await refused("banned");
    throw new AppError("RULE", "user_banned");
  }
  const updated = await db().user.update({ where: { id: user.id }, data: { last_login_time: BigInt(nowSeconds()), language: ctx.locale } });
  const cookies = [await startSession(ctx, updated), clearCookie(PENDING_LOGIN_COOKIE, ctx.https)];
  await recordAudit(ctx, { action: "login", actor: updated, target: { type: "user", id: updated.id }, detail: { method: "two_factor" } });
  return { user: presentUser(updated), cookies };
}
