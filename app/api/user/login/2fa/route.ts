// POST /api/user/login/2fa {code}: completes a password login that answered require_2fa
import { Reply, route } from "@/lib/http/route";
import { codeBody } from "@/lib/twofa/schemas";
import { completeTwoFactorLogin } from "@/lib/users/login-2fa";

export const POST = route({ access: "public", body: codeBody, rateLimit: "critical" }, async ({ ctx, body }) => {
  const { user, cookies } = await completeTwoFactorLogin({ ctx, input: body });
  return new Reply({ data: user, headers: { "set-cookie": cookies } });
});
