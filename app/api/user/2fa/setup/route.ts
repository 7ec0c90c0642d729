// POST /api/user/2fa/setup: a new TOTP secret, its otpauth URI and ten backup codes (shown once)
import { route } from "@/lib/http/route";
import { setupTwoFactor } from "@/lib/twofa/setup";

export const POST = route({ access: "user" }, async ({ ctx }) => setupTwoFactor({ ctx }));
