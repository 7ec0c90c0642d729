// POST /api/user/reset: uses a reset link once and answers a new random password
// (docs/accounts-api.md, "Password reset"). The new hash changes the password version every
// session carries (lib/auth/session.ts), and every session of the account ends on every node
// (docs/accounts-api.md, "Sessions"). A wrong token
// is not counted: a reset token (32 random letters and digits) cannot be guessed, and a guess
// limit would let anyone who knows the address kill the live link (docs/mail.md).
import "server-only";
import { hashPassword } from "@/lib/auth/password";
import { randomAlnum } from "@/lib/auth/lookup-hash";
import type { Ctx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { normalizeEmail } from "@/lib/mail/address";
import { consumeCode } from "@/lib/mail/codes";
import { endUserSessions } from "@/lib/sessions/end";
import { TX_OPTIONS } from "@/lib/users/db-errors";
import { recordAudit } from "@/lib/audit/record";

export const RESET_PASSWORD_LENGTH = 12;

export async function resetPassword({ ctx, input }: { ctx: Ctx; input: { email: string; token: string } }): Promise<string> {
  const email = normalizeEmail(input.email);
  if (!email || !input.token.trim()) throw new AppError("RULE", "reset_link_invalid");
  const password = randomAlnum(RESET_PASSWORD_LENGTH);
  const hash = await hashPassword(password);
  const done = await db().$transaction<{ id: number; username: string } | false>(async (tx) => {
    if (!(await consumeCode("reset", email, input.token, tx))) return false;
    const user = await tx.user.findFirst({ where: { email_key: email, deleted_at: null }, select: { id: true, username: true } });
    if (!user) return false;
    await tx.user.update({ where: { id: user.id }, data: { password: hash } });
    return user;
  }, TX_OPTIONS);
  if (done === false) throw new AppError("RULE", "reset_link_invalid");
  // the actor is the account's owner, who proved it with the mailed link
  await recordAudit(ctx, { action: "password_reset", actor: done, target: { type: "user", id: done.id }, detail: { by: "mail_link" } });
  await endUserSessions(done.id, { ctx, actorId: null, reason: "password_reset" });
  return password;
}
