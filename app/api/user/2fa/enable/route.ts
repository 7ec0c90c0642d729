// POST /api/user/2fa/enable {code}: the first TOTP code turns two-factor authentication on
import { Reply, route } from "@/lib/http/route";
import { codeBody } from "@/lib/twofa/schemas";
import { enableTwoFactor } from "@/lib/twofa/enable";

export const POST = route({ access: "user", body: codeBody }, async ({ ctx, body }) => {
  await enableTwoFactor({ ctx, input: body });
  return new Reply({ message: ctx.t("twofa_enabled") });
});
