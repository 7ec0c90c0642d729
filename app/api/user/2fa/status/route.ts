// GET /api/user/2fa/status: TOTP on or not, backup codes left, passkeys, fresh-factor window
import { route } from "@/lib/http/route";
import { getTwoFactorStatus } from "@/lib/twofa/get-status";

export const GET = route({ access: "user" }, async ({ ctx }) => getTwoFactorStatus({ ctx }));
