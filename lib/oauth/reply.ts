// The answer of a sign-in call: message "bind" for a bind (as new-api answers it); for a user
// with TOTP on, {require_2fa: true} and the pending step's cookie, as POST /api/user/login
// answers; else the user and the new session cookie.
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { Reply } from "@/lib/http/route";
import type { SignInResult } from "@/lib/oauth/sign-in";

export function signInReply(ctx: Ctx, result: SignInResult): Reply {
  if (result.kind === "bind") return new Reply({ message: "bind" });
  if (result.kind === "require_2fa")
    return new Reply({ data: { require_2fa: true }, message: ctx.t("twofa_enter_code"), headers: { "set-cookie": result.cookie } });
  return new Reply({ data: result.user, headers: { "set-cookie": result.cookie } });
}
