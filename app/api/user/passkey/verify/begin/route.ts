// POST /api/user/passkey/verify/begin: request options for the caller's passkeys (a fresh second factor)
import { Reply, route } from "@/lib/http/route";
import { beginPasskeyVerify } from "@/lib/twofa/passkey-verify";

export const POST = route({ access: "user" }, async ({ ctx }) => {
  const { options, cookie } = await beginPasskeyVerify({ ctx });
  return new Reply({ data: options, headers: { "set-cookie": cookie } });
});
