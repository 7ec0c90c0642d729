// POST /api/option/test_mail: root sends a test mail with the saved SMTP settings
import { Reply, route } from "@/lib/http/route";
import { sendTestMail } from "@/lib/mail/send-test-mail";
import { testMailBody } from "@/lib/users/schemas";

export const POST = route({ access: "root", body: testMailBody }, async ({ ctx, body }) => {
  const { message } = await sendTestMail({ ctx, input: body });
  return new Reply({ message });
});
