// POST /api/user/passkey/verify/finish {response}: check the assertion; sets the fresh-factor cookie
import { Reply, route } from "@/lib/http/route";
import { assertionBody } from "@/lib/twofa/schemas";
import { finishPasskeyVerify } from "@/lib/twofa/passkey-verify";

export const POST = route({ access: "user", body: assertionBody }, async ({ ctx, body }) => {
  const { cookies } = await finishPasskeyVerify({ ctx, input: body });
  return new Reply({ headers: { "set-cookie": cookies } });
});
