// GET /api/verification: mails a 6-digit code for registration or binding (docs/mail.md,
// "Codes and reset links"). The address must pass every rule an account's address must pass
// (lib/users/email-rules.ts) before anything is mailed; a code that could not be mailed is
// withdrawn so that the 30-second cooldown does not hold the user back.
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { CODE_TTL_SECONDS, issueCode, withdrawCode } from "@/lib/mail/codes";
import { sendMail } from "@/lib/mail/send";
import { renderMail } from "@/lib/mail/templates";
import { checkEmailAvailable } from "@/lib/users/email-rules";

export async function sendVerification({ ctx, input }: { ctx: Ctx; input: { email: string } }): Promise<{ message: string }> {
  const email = await checkEmailAvailable(input.email);
  const code = await issueCode("verify", email);
  try {
    await sendMail(renderMail(ctx.locale, email, { kind: "verification", code, minutes: CODE_TTL_SECONDS.verify / 60 }));
  } catch (err) {
    await withdrawCode("verify", email, code);
    throw err;
  }
  return { message: ctx.t("email_code_sent") };
}
