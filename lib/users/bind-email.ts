// GET /api/oauth/email/bind: binds or changes the signed-in user's address with a mailed
// code (docs/accounts-api.md, "E-mail addresses"). The code is consumed in the transaction
// that writes the address, so a refused write (the address taken meanwhile) keeps it usable.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { consumeCode, countGuess } from "@/lib/mail/codes";
import { checkEmailAvailable } from "@/lib/users/email-rules";
import { isUniqueViolation, TX_OPTIONS } from "@/lib/users/db-errors";

export async function bindEmail({ ctx, input }: { ctx: UserCtx; input: { email: string; code: string } }): Promise<{ message: string }> {
  if (!input.email.trim()) throw new AppError("INVALID_INPUT", "email_required");
  if (!input.code.trim()) throw new AppError("INVALID_INPUT", "email_code_required");
  const email = await checkEmailAvailable(input.email, ctx.user.id);
  if (!(await countGuess(email))) throw new AppError("RULE", "email_code_wrong");
  try {
    await db().$transaction(async (tx) => {
      if (!(await consumeCode("verify", email, input.code, tx))) throw new AppError("RULE", "email_code_wrong");
      await tx.user.update({ where: { id: ctx.user.id }, data: { email, email_key: email } });
    }, TX_OPTIONS);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("RULE", "email_taken");
    throw err;
  }
  return { message: ctx.t("email_bound") };
}
