// Checking a second factor (docs/two-factor.md): a TOTP code (otplib, 30-second steps, one
// step of clock drift either way) or a single-use backup code. Every check of a user counts
// against a per-user window (TWOFA_ATTEMPTS per TWOFA_WINDOW_SECONDS), so that a stolen
// password cannot be followed by a guessing run. A TOTP step is accepted once: the last used
// step is raised by one conditional update, and a code of that step or an earlier one is
// refused. A backup code is removed by one conditional update of the list it was found in.
import "server-only";
import { randomInt, timingSafeEqual } from "node:crypto";
import { generateSecret, generateURI, verify } from "otplib";
import { lookupHash } from "@/lib/auth/lookup-hash";
import { open } from "@/lib/auth/secret-box";
import { db, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { hit } from "@/lib/http/rate-limit";

export const BACKUP_CODE_COUNT = 10;
export const TWOFA_ATTEMPTS = 10;
export const TWOFA_WINDOW_SECONDS = 10 * 60;
const TOTP_CODE = /^\d{6}$/;
// Backup codes: 10 characters of an alphabet without look-alikes (0/O, 1/I/L), about 49 bits, shown as XXXXX-XXXXX.
const BACKUP_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const BACKUP_CODE = /^[A-Z0-9]{10}$/;

export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function totpUri(issuer: string, label: string, secret: string): string {
  return generateURI({ issuer, label, secret });
}

export function newBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, () => {
    let code = "";
    for (let i = 0; i < 10; i++) code += BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

function normalizeBackup(code: string): string {
  return code.replace(/[\s-]/g, "").toUpperCase();
}

export function hashBackupCode(code: string): string {
  return lookupHash(`twofa-backup:${normalizeBackup(code)}`);
}

/** Whether the input has the shape of a TOTP code or a backup code. */
export function isCodeShaped(code: string): boolean {
  const c = code.trim();
  return TOTP_CODE.test(c) || BACKUP_CODE.test(normalizeBackup(c));
}

/** The time step a TOTP code matches (after afterStep), or null. otplib compares in constant time. */
export async function matchTotp(secret: string, code: string, afterStep: bigint): Promise<number | null> {
  if (!TOTP_CODE.test(code)) return null;
  const result = await verify({ secret, token: code, epochTolerance: 30, afterTimeStep: Number(afterStep) });
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

/** The index of hash in hashes, compared in constant time over the whole list, or -1. */
function findHash(hashes: string[], hash: string): number {
  const wanted = Buffer.from(hash, "hex");
  let found = -1;
  hashes.forEach((h, i) => {
    const b = Buffer.from(h, "hex");
    if (b.length === wanted.length && timingSafeEqual(b, wanted) && found === -1) found = i;
  });
  return found;
}

export function parseBackupList(stored: string): string[] {
  try {
    const list: unknown = JSON.parse(stored);
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** Counts one attempt of user against the window; throws when the window is full. */
export async function countAttempt(userId: number): Promise<void> {
  if (!(await hit(`twofa:${userId}`, TWOFA_ATTEMPTS, TWOFA_WINDOW_SECONDS))) throw new AppError("RATE_LIMITED", "twofa_too_many_attempts");
}

/**
 * Checks and uses a second factor of a user whose TOTP is on: a TOTP code of a step not used
 * yet, or an unused backup code (then spent). Throws twofa_code_invalid otherwise.
 */
export async function spendSecondFactor(userId: number, rawCode: string): Promise<"totp" | "backup"> {
  await countAttempt(userId);
  return spendUncounted(db(), userId, rawCode);
}

/**
 * spendSecondFactor without the per-user count (the caller counts first), on a given client:
 * inside a transaction, the code is spent only if the transaction commits.
 */
export async function spendUncounted(client: Tx, userId: number, rawCode: string): Promise<"totp" | "backup"> {
  const code = rawCode.trim();
  const record = await client.twoFactor.findUnique({ where: { user_id: userId } });
  if (!record || !record.enabled) throw new AppError("RULE", "twofa_not_enabled");
  if (TOTP_CODE.test(code)) {
    const step = await matchTotp(open(record.secret), code, record.last_used_step);
    if (step !== null) {
      const used = await client.twoFactor.updateMany({
        where: { user_id: userId, enabled: true, last_used_step: { lt: BigInt(step) } },
        data: { last_used_step: BigInt(step) },
      });
      if (used.count === 1) return "totp";
    }
    throw new AppError("RULE", "twofa_code_invalid");
  }
  const normalized = normalizeBackup(code);
  if (BACKUP_CODE.test(normalized)) {
    const list = parseBackupList(record.backup_codes);
    const at = findHash(list, hashBackupCode(normalized));
    if (at >= 0) {
      const rest = list.filter((_, i) => i !== at);
      const spent = await client.twoFactor.updateMany({
        where: { user_id: userId, enabled: true, backup_codes: record.backup_codes },
        data: { backup_codes: JSON.stringify(rest) },
      });
      if (spent.count === 1) return "backup";
    }
  }
  throw new AppError("RULE", "twofa_code_invalid");
}

/** Whether the user has TOTP on. */
export async function totpEnabled(userId: number): Promise<boolean> {
  const record = await db().twoFactor.findUnique({ where: { user_id: userId }, select: { enabled: true } });
  return record?.enabled === true;
}

/** Whether the user has any second factor (TOTP on, or a passkey). */
export async function hasSecondFactor(userId: number): Promise<boolean> {
  const [totp, passkeys] = await Promise.all([totpEnabled(userId), db().passkey.count({ where: { user_id: userId } })]);
  return totp || passkeys > 0;
}
