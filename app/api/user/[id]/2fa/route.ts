// GET /api/user/{id}/2fa: (admin) whether the user has TOTP on and how many passkeys
import { idParams } from "@/lib/http/params";
import { Reply, route } from "@/lib/http/route";
import { getUserTwoFactor } from "@/lib/twofa/get-user-status";
import { resetUserTwoFactor } from "@/lib/twofa/reset-user";

export const GET = route({ access: "admin", gate: "GET /api/user/{id}/2fa", params: idParams }, async ({ ctx, params }) =>
  getUserTwoFactor({ ctx, input: params }),
);

// DELETE /api/user/{id}/2fa: (root) turn a user's TOTP off and remove their passkeys
export const DELETE = route({ access: "root", params: idParams }, async ({ ctx, params }) => {
  await resetUserTwoFactor({ ctx, input: params });
  return new Reply({ message: ctx.t("twofa_reset_done") });
});
