// GET /api/verification: mails an e-mail verification code (registration, binding)
import { Reply, route } from "@/lib/http/route";
import { verificationQuery } from "@/lib/users/schemas";
import { sendVerification } from "@/lib/users/send-verification";

export const GET = route({ access: "public", query: verificationQuery, rateLimit: "critical", humanCheck: true }, async ({ ctx, query }) => {
  const { message } = await sendVerification({ ctx, input: { email: query.email } });
  return new Reply({ message });
});
