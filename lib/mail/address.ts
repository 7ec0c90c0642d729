// The one check of an e-mail address's form (at most 100 characters, zod's address rule),
// used wherever the server accepts an address: the code request, registration and binding
// (lib/users/email-rules.ts), the password reset request, the root's test mail.
import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";

export const EMAIL_MAX = 100;

/** The stored form of an address: trimmed and lowercased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const isEmailAddress = (email: string): boolean => email.length <= EMAIL_MAX && z.email().safeParse(email).success;

/** The address normalized; refused when empty ("please enter email") or malformed. */
export function requireEmailAddress(raw: string): string {
  const email = normalizeEmail(raw);
  if (!email) throw new AppError("INVALID_INPUT", "email_required");
  if (!isEmailAddress(email)) throw new AppError("INVALID_INPUT", "email_invalid");
  return email;
}
