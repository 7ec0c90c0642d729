// POST /api/user/reset: uses a reset link; data is the new password
import { route } from "@/lib/http/route";
import { resetPassword } from "@/lib/users/reset-password";
import { resetBody } from "@/lib/users/schemas";

export const POST = route({ access: "public", body: resetBody, rateLimit: "critical" }, async ({ ctx, body }) => resetPassword({ ctx, input: body }));
