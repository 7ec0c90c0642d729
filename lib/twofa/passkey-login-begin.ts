// POST /api/user/passkey/login/begin (public): request options for any passkey of the site
// (discoverable credentials), when the site option PasskeyLoginEnabled is on.
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { getBool } from "@/lib/options/store";
import { beginAssertion } from "@/lib/twofa/passkeys";

export async function beginPasskeyLogin({ ctx }: { ctx: Ctx }) {
  if (!getBool("PasskeyLoginEnabled")) throw new AppError("RULE", "passkey_login_disabled");
  return beginAssertion("passkey_login", 0, ctx.https);
}
