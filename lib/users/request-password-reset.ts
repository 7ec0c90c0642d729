// GET /api/reset_password: mails a single-use reset link (ServerAddress + /user/reset?email=&token=)
// to the account holding the address (docs/accounts-api.md, "Password reset"). The answer never
// tells whether the address belongs to an account: a token row (and its 30-second cooldown)
// is written for any address, the same message answers, and the mail goes out in the
// background, so that the request takes the same time either way. The mail is in the account
// holder's language (users.language), else the request's.
import "server-only";
import type { Ctx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { isLocale } from "@/lib/i18n/locale";
import { requireEmailAddress } from "@/lib/mail/address";
import { CODE_TTL_SECONDS, issueCode } from "@/lib/mail/codes";
import { mailConfigured, sendMail } from "@/lib/mail/send";
import { renderMail } from "@/lib/mail/templates";
import { getOption } from "@/lib/options/store";

export async function requestPasswordReset({ ctx, input }: { ctx: Ctx; input: { email: string } }): Promise<{ message: string }> {
  const email = requireEmailAddress(input.email);
  if (!mailConfigured()) throw new AppError("RULE", "mail_not_configured");
  // Never the request's Host: a forged one would send the victim a link to another site.
  const base = getOption("ServerAddress").trim().replace(/\/+$/, "");
  if (!base) throw new AppError("RULE", "reset_needs_server_address");
  const token = await issueCode("reset", email);
  const user = await db().user.findFirst({ where: { email_key: email, deleted_at: null }, select: { language: true } });
  if (user) {
    const link = `${base}/user/reset?email=${encodeURIComponent(email)}&token=${encodeURIComponent(token)}`;
    const mail = renderMail(isLocale(user.language) ? user.language : ctx.locale, email, { kind: "reset", link, minutes: CODE_TTL_SECONDS.reset / 60 });
    // sendMail logs the cause of a failure itself (without the password).
    void sendMail(mail).catch(() => {});
  }
  return { message: ctx.t("reset_mail_sent") };
}
