// GET /api/reset_password: mails a password reset link (same answer for any address)
import { Reply, route } from "@/lib/http/route";
import { requestPasswordReset } from "@/lib/users/request-password-reset";
import { resetRequestQuery } from "@/lib/users/schemas";

export const GET = route({ access: "public", query: resetRequestQuery, rateLimit: "critical", humanCheck: true }, async ({ ctx, query }) => {
  const { message } = await requestPasswordReset({ ctx, input: { email: query.email } });
  return new Reply({ message });
});
