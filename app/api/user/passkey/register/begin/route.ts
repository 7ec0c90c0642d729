// POST /api/user/passkey/register/begin: creation options for a new passkey (challenge bound to this browser)
import { Reply, route } from "@/lib/http/route";
import { beginPasskeyRegistration } from "@/lib/twofa/passkey-register";

export const POST = route({ access: "user" }, async ({ ctx }) => {
  const { options, cookie } = await beginPasskeyRegistration({ ctx });
  return new Reply({ data: options, headers: { "set-cookie": cookie } });
});
