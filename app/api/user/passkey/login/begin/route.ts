// POST /api/user/passkey/login/begin?turnstile=: request options for signing in with a passkey (PasskeyLoginEnabled).
// A sign-in like the password login, so it carries the same human check (docs/oauth.md); the
// finish call needs this call's challenge cookie, so checking here covers the whole ceremony.
import { Reply, route } from "@/lib/http/route";
import { beginPasskeyLogin } from "@/lib/twofa/passkey-login-begin";

export const POST = route({ access: "public", rateLimit: "critical", humanCheck: true }, async ({ ctx }) => {
  const { options, cookie } = await beginPasskeyLogin({ ctx });
  return new Reply({ data: options, headers: { "set-cookie": cookie } });
});
