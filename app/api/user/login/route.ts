// POST /api/user/login: password login; sets the session cookie and returns the user, or, for
// a user with two-factor authentication on, answers {require_2fa: true} and no session
import { Reply, route } from "@/lib/http/route";
import { login } from "@/lib/users/login";
import { loginBody } from "@/lib/users/schemas";

export const POST = route({ access: "public", body: loginBody, rateLimit: "critical", humanCheck: true }, async ({ ctx, body }) => {
  const result = await login({ ctx, input: body });
  if (result.require2fa) return new Reply({ data: { require_2fa: true }, message: ctx.t("twofa_enter_code"), headers: { "set-cookie": result.cookie } });
  return new Reply({ data: result.user, headers: { "set-cookie": result.cookie } });
});
