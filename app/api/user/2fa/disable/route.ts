// POST /api/user/2fa/disable {code}: a TOTP or backup code turns two-factor authentication off
import { Reply, route } from "@/lib/http/route";
import { codeBody } from "@/lib/twofa/schemas";
import { disableTwoFactor } from "@/lib/twofa/disable";

export const POST = route({ access: "user", body: codeBody, demoBlocked: true }, async ({ ctx, body }) => {
  await disableTwoFactor({ ctx, input: body });
  return new Reply({ message: ctx.t("twofa_disabled") });
});
