// Pending sign-in steps (docs/two-factor.md, "Pending steps"): one auth_challenges row per
// step, found by a random id of 128+ bits that only the browser's HttpOnly cookie holds.
// A step expires after a few minutes and is consumed by one conditional delete, so that it
// is used once whatever the interleaving, on one node or several.
import "server-only";
import { randomAlnum } from "@/lib/auth/lookup-hash";
import { db, type Tx } from "@/lib/db/client";
import { nowSeconds } from "@/lib/time";

export type ChallengePurpose = "login_2fa" | "passkey_register" | "passkey_login" | "passkey_verify";
export const CHALLENGE_TTL_SECONDS: Record<ChallengePurpose, number> = {
  login_2fa: 5 * 60,
  passkey_register: 5 * 60,
  passkey_login: 5 * 60,
  passkey_verify: 5 * 60,
};
// Wrong codes allowed against one pending login.
export const PENDING_MAX_ATTEMPTS = 5;

export type Challenge = { id: string; purpose: string; user_id: number; challenge: string; attempts: number; expires_at: bigint };

export async function createChallenge(purpose: ChallengePurpose, userId: number, challenge: string): Promise<string> {
  const id = randomAlnum(32); // about 190 bits
  const now = nowSeconds();
  await db().authChallenge.create({ data: { id, purpose, user_id: userId, challenge, expires_at: BigInt(now + CHALLENGE_TTL_SECONDS[purpose]) } });
  // Opportunistic sweep of steps that expired.
  await db().authChallenge.deleteMany({ where: { expires_at: { lt: BigInt(now) } } });
  return id;
}

/** The live step with this id and purpose (not consumed), or null. */
export async function findChallenge(id: string | undefined, purpose: ChallengePurpose): Promise<Challenge | null> {
  if (!id || !/^[A-Za-z0-9]{32}$/.test(id)) return null;
  const row = await db().authChallenge.findUnique({ where: { id } });
  if (!row || row.purpose !== purpose || row.expires_at < BigInt(nowSeconds())) return null;
  return row;
}

/** Consumes the step: true for exactly one caller (inside a transaction: once it commits). */
export async function consumeChallenge(id: string, client: Tx = db()): Promise<boolean> {
  const done = await client.authChallenge.deleteMany({ where: { id, expires_at: { gte: BigInt(nowSeconds()) } } });
  return done.count === 1;
}

/** Counts a wrong code against a pending step; false when it had no attempt left (it is then removed). */
export async function countFailedAttempt(id: string): Promise<boolean> {
  const counted = await db().authChallenge.updateMany({ where: { id, attempts: { lt: PENDING_MAX_ATTEMPTS - 1 } }, data: { attempts: { increment: 1 } } });
  if (counted.count === 1) return true;
  await db().authChallenge.deleteMany({ where: { id } });
  return false;
}
