// POST /api/option/test_mail: the root checks the saved SMTP settings by mailing itself (or
// the given address) a test message (docs/mail.md, "Test mail"). Failures answer sendMail's
// messages: not configured, or could not be sent (the cause is in the server log).
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { isEmailAddress } from "@/lib/mail/address";
import { sendMail } from "@/lib/mail/send";
import { renderMail } from "@/lib/mail/templates";

export async function sendTestMail({ ctx, input }: { ctx: UserCtx; input: { to: string } }): Promise<{ message: string }> {
  const to = input.to.trim() || ctx.user.email.trim();
  if (!to) throw new AppError("INVALID_INPUT", "test_mail_no_address");
  if (!isEmailAddress(to)) throw new AppError("INVALID_INPUT", "email_invalid");
  await sendMail(renderMail(ctx.locale, to, { kind: "test" }));
  return { message: ctx.t("test_mail_sent", { to }) };
}
