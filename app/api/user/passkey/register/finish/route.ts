// POST /api/user/passkey/register/finish {name, response}: verify the attestation and store the passkey
import { Reply, route } from "@/lib/http/route";
import { registrationBody } from "@/lib/twofa/schemas";
import { finishPasskeyRegistration } from "@/lib/twofa/passkey-register";

export const POST = route({ access: "user", body: registrationBody }, async ({ ctx, body }) => {
  const { passkey, cookie } = await finishPasskeyRegistration({ ctx, input: body });
  return new Reply({ data: passkey, headers: { "set-cookie": cookie } });
});
