// GET /api/oauth/email/bind: binds or changes the caller's e-mail address with a mailed code
import { Reply, route } from "@/lib/http/route";
import { bindEmail } from "@/lib/users/bind-email";
import { emailBindQuery } from "@/lib/users/schemas";

export const GET = route({ access: "user", query: emailBindQuery, rateLimit: "critical" }, async ({ ctx, query }) => {
  const { message } = await bindEmail({ ctx, input: { email: query.email, code: query.code } });
  return new Reply({ message });
});
