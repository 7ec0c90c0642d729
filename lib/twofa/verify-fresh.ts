// POST /api/user/2fa/verify {code}: a TOTP code or a backup code proves a fresh second factor
// for the sensitive actions of the next few minutes (the twofa_fresh cookie).
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { freshCookieFor } from "@/lib/twofa/cookies";
import { spendSecondFactor } from "@/lib/twofa/factor";

export async function verifyFreshFactor({ ctx, input }: { ctx: UserCtx; input: { code: string } }): Promise<{ cookie: string }> {
  await spendSecondFactor(ctx.user.id, input.code);
  return { cookie: await freshCookieFor(ctx.user, ctx.https) };
}
