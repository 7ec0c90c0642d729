// POST /api/user/passkey/login/finish {response}: sign in with a passkey; sets the session cookie
import { Reply, route } from "@/lib/http/route";
import { assertionBody } from "@/lib/twofa/schemas";
import { finishPasskeyLogin } from "@/lib/users/passkey-login";

export const POST = route({ access: "public", body: assertionBody, rateLimit: "critical" }, async ({ ctx, body }) => {
  const { user, cookies } = await finishPasskeyLogin({ ctx, input: body });
  return new Reply({ data: user, headers: { "set-cookie": cookies } });
});
