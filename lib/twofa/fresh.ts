// Sensitive actions (changing the password, a new access token, deleting the account) ask
// for a fresh second factor when the user has one (docs/two-factor.md, "Sensitive actions"):
// the proof is the twofa_fresh cookie that POST /api/user/2fa/verify or a passkey check
// sets for FRESH_SECONDS.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { freshUntil } from "@/lib/twofa/cookies";
import { hasSecondFactor } from "@/lib/twofa/factor";

export async function requireFreshFactor(ctx: UserCtx): Promise<void> {
  if (!(await hasSecondFactor(ctx.user.id))) return;
  if ((await freshUntil(ctx.headers, ctx.user)) === 0) throw new AppError("RULE", "twofa_fresh_required");
}
