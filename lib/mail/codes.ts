// E-mail codes and reset tokens (docs/mail.md, "Codes and reset links"): one live secret per
// (purpose, address) in the email_codes table, stored as a keyed hash, so that every node
// sees the same codes. Issuing is refused within 30 seconds of the previous one for the same
// purpose and address; a secret is consumed once, before it expires; a 6-digit code allows
// MAX_ATTEMPTS guesses (a reset token, 32 random letters and digits, cannot be guessed and
// has no such limit). Every step is one conditional statement, so concurrent requests (on one
// node or several) cannot issue twice within the cooldown, guess more than MAX_ATTEMPTS
// times, or use a secret twice.
import "server-only";
import { randomInt } from "node:crypto";
import { lookupHash, randomAlnum } from "@/lib/auth/lookup-hash";
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { normalizeEmail } from "@/lib/mail/address";
import { nowSeconds } from "@/lib/time";

export type CodePurpose = "verify" | "reset";

export const CODE_COOLDOWN_SECONDS = 30;
export const CODE_TTL_SECONDS: Record<CodePurpose, number> = { verify: 10 * 60, reset: 30 * 60 };
export const MAX_ATTEMPTS = 5;
export const CODE_LENGTH = 6;
export const RESET_TOKEN_LENGTH = 32;

const hashOf = (purpose: CodePurpose, email: string, secret: string) => lookupHash(`email-code:${purpose}:${email}:${secret}`);

function newSecret(purpose: CodePurpose): string {
  if (purpose === "reset") return randomAlnum(RESET_TOKEN_LENGTH);
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) code += String(randomInt(10));
  return code;
}

/**
 * Issues a new secret for (purpose, address), replacing the previous one. Throws
 * RATE_LIMITED too_many_requests within the cooldown. Answers the secret (to be mailed).
 */
export async function issueCode(purpose: CodePurpose, rawEmail: string): Promise<string> {
  const email = normalizeEmail(rawEmail);
  const secret = newSecret(purpose);
  const now = nowSeconds();
  const data = {
    code_hash: hashOf(purpose, email, secret),
    attempts: 0,
    used: false,
    created_at: BigInt(now),
    expires_at: BigInt(now + CODE_TTL_SECONDS[purpose]),
  };
  // Replace the previous secret only when its cooldown is over; no row yet: create one (a
  // concurrent create loses on the primary key and is within the cooldown by definition).
  const replaced = await db().emailCode.updateMany({ where: { purpose, email, created_at: { lte: BigInt(now - CODE_COOLDOWN_SECONDS) } }, data });
  if (replaced.count === 0) {
    try {
      await db().emailCode.create({ data: Object.assign({ purpose, email }, data) });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError("RATE_LIMITED", "too_many_requests");
      throw err;
    }
  }
  // Opportunistic sweep of secrets that expired more than a day ago.
  await db().emailCode.deleteMany({ where: { expires_at: { lt: BigInt(now - 86_400) } } });
  return secret;
}

/** Forgets a secret that could not be mailed, so the cooldown does not hold the user back. */
export async function withdrawCode(purpose: CodePurpose, rawEmail: string, secret: string): Promise<void> {
  const email = normalizeEmail(rawEmail);
  await db().emailCode.deleteMany({ where: { purpose, email, code_hash: hashOf(purpose, email, secret) } });
}

/**
 * Counts one guess against the live verification code of an address, before the code is
 * compared: one conditional update (unused, unexpired, attempts < MAX_ATTEMPTS → attempts + 1),
 * so that concurrent guesses cannot get past the limit. False when there is no live code or
 * MAX_ATTEMPTS guesses were already made: the caller refuses without comparing. Called outside
 * the transaction of the change the code pays for, so that a refusal (which rolls that
 * transaction back) does not undo the count. Reset tokens are not counted (see above).
 */
export async function countGuess(rawEmail: string): Promise<boolean> {
  const counted = await db().emailCode.updateMany({
    where: { purpose: "verify", email: normalizeEmail(rawEmail), used: false, expires_at: { gt: BigInt(nowSeconds()) }, attempts: { lt: MAX_ATTEMPTS } },
    data: { attempts: { increment: 1 } },
  });
  return counted.count === 1;
}

/**
 * Uses a secret once: true when it matched, was unused and unexpired. A verification code
 * must first have been counted by countGuess (which enforces the guess limit). `tx` lets the
 * caller consume inside the transaction of the change the code pays for (rolled back with it).
 */
export async function consumeCode(
  purpose: CodePurpose,
  rawEmail: string,
  secret: string,
  tx: Pick<ReturnType<typeof db>, "emailCode"> = db(),
): Promise<boolean> {
  const email = normalizeEmail(rawEmail);
  const candidate = secret.trim();
  if (!candidate) return false;
  const used = await tx.emailCode.updateMany({
    where: { purpose, email, code_hash: hashOf(purpose, email, candidate), used: false, expires_at: { gt: BigInt(nowSeconds()) } },
    data: { used: true },
  });
  return used.count === 1;
}
