// POST /api/user/passkey/login/begin: request options for signing in with a passkey (PasskeyLoginEnabled)
import { Reply, route } from "@/lib/http/route";
import { beginPasskeyLogin } from "@/lib/twofa/passkey-login-begin";

export const POST = route({ access: "public", rateLimit: "critical" }, async ({ ctx }) => {
  const { options, cookie } = await beginPasskeyLogin({ ctx });
  return new Reply({ data: options, headers: { "set-cookie": cookie } });
});
