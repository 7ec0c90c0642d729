// Self-registration with a password. The new user, the new-user bonus, and the invitation
// rewards (inviter's earnings, invitee's bonus) are written in one transaction; every
// balance change goes through the ledger. An unknown invitation code is ignored, as in new-api.
// With EmailVerificationEnabled the address and its mailed code are required; without it no
// address is taken at all (docs/accounts-api.md, "E-mail addresses").
import "server-only";
import { hashPassword } from "@/lib/auth/password";
import { ROLE } from "@/lib/auth/roles";
import { changeUserQuota } from "@/lib/billing/ledger";
import { db } from "@/lib/db/client";
import type { Ctx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { getBool, getNumber } from "@/lib/options/store";
import type { OptionKey } from "@/lib/options/registry";
import { consumeCode, countGuess } from "@/lib/mail/codes";
import { newAffCode } from "@/lib/users/aff-code";
import { checkEmailAvailable, emailKey } from "@/lib/users/email-rules";
import { isUniqueViolation, TX_OPTIONS } from "@/lib/users/db-errors";
import { presentUser } from "@/lib/users/present";
import { nowSeconds } from "@/lib/time";
import { USER_STATUS } from "@/lib/statuses";
import { recordAudit } from "@/lib/audit/record";

export type RegisterInput = {
  username: string;
  password: string;
  email: string;
  verification_code: string;
  aff_code: string;
};

const nonNegative = (key: OptionKey) => BigInt(Math.max(0, Math.trunc(getNumber(key, 0))));

export async function register({ ctx, input }: { ctx: Ctx; input: RegisterInput }) {
  if (!getBool("RegisterEnabled") || getBool("SelfUseModeEnabled")) throw new AppError("RULE", "register_disabled");
  if (!getBool("PasswordRegisterEnabled")) throw new AppError("RULE", "password_register_disabled");
  const verify = getBool("EmailVerificationEnabled");
  if (verify && !input.email) throw new AppError("INVALID_INPUT", "email_required");
  if (verify && !input.verification_code) throw new AppError("INVALID_INPUT", "email_code_required");
  // Only a verified address is stored: with verification off an address typed by anyone would
  // reserve it (one account per address) against its real owner, so none is taken; the account
  // gets one by a verified binding or from an admin. A verified one passes every address rule.
  const email = verify ? await checkEmailAvailable(input.email) : "";
  if (await db().user.findUnique({ where: { username: input.username }, select: { id: true } })) {
    throw new AppError("RULE", "username_taken");
  }
  const hash = await hashPassword(input.password);
  const newUserQuota = nonNegative("QuotaForNewUser");
  const inviterReward = nonNegative("QuotaForInviter");
  const inviteeReward = nonNegative("QuotaForInvitee");
  // The guess is counted before the transaction, so that the refusal does not undo it.
  if (verify && !(await countGuess(email))) throw new AppError("RULE", "email_code_wrong");

  for (let attempt = 0; ; attempt++) {
    try {
      const user = await db().$transaction(async (tx) => {
        // The mailed code is used in the transaction that creates the account: a refused
        // registration (username taken) leaves it usable.
        if (verify && !(await consumeCode("verify", email, input.verification_code, tx))) throw new AppError("RULE", "email_code_wrong");
        // With AffEnabled off a code is ignored: no inviter, no rewards (docs/options.md).
        const inviter =
          input.aff_code && getBool("AffEnabled")
            ? await tx.user.findFirst({ where: { aff_code: input.aff_code, deleted_at: null }, select: { id: true } })
            : null;
        const created = await tx.user.create({
          data: {
            username: input.username,
            password: hash,
            display_name: input.username,
            email,
            email_key: emailKey(email),
            role: ROLE.user,
            status: USER_STATUS.enabled,
            group: "default",
            aff_code: newAffCode(),
            inviter_id: inviter?.id ?? 0,
            created_time: BigInt(nowSeconds()),
          },
        });
        if (newUserQuota > 0n) await changeUserQuota(tx, { userId: created.id, delta: newUserQuota, kind: "register_bonus" });
        if (inviter) {
          await tx.user.update({
            where: { id: inviter.id },
            data: { aff_count: { increment: 1 }, aff_quota: { increment: inviterReward }, aff_history_quota: { increment: inviterReward } },
          });
          if (inviteeReward > 0n) {
            await changeUserQuota(tx, { userId: created.id, delta: inviteeReward, kind: "invitee_bonus", ref: `inviter:${inviter.id}` });
          }
        }
        return tx.user.findUniqueOrThrow({ where: { id: created.id } });
      }, TX_OPTIONS);
      await recordAudit(ctx, { action: "register", actor: user, target: { type: "user", id: user.id }, detail: { method: "password" } });
      return presentUser(user);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (email && (await db().user.findUnique({ where: { email_key: email }, select: { id: true } }))) throw new AppError("RULE", "email_taken");
      // Either the username was taken meanwhile, or (rarely) the random aff_code collided.
      const taken = await db().user.findUnique({ where: { username: input.username }, select: { id: true } });
      if (taken || attempt >= 2) throw new AppError("RULE", "username_taken");
    }
  }
}
