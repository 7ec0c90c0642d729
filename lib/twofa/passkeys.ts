// Passkeys (WebAuthn, @simplewebauthn/server; docs/two-factor.md, "Passkeys"). The relying
// party is the site's ServerAddress: its host name is the RP ID and its origin the expected
// origin, never the request's Host header. Every ceremony's challenge is a single-use
// auth_challenges row bound to the browser by the webauthn_step cookie.
import "server-only";
import { generateAuthenticationOptions, verifyAuthenticationResponse, type AuthenticationResponseJSON } from "@simplewebauthn/server";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getOption } from "@/lib/options/store";
import { consumeChallenge, createChallenge, findChallenge, type ChallengePurpose } from "@/lib/twofa/challenges";
import { WEBAUTHN_COOKIE, readCookie, setCookie, clearCookie } from "@/lib/twofa/cookies";
import { CHALLENGE_TTL_SECONDS } from "@/lib/twofa/challenges";
import { countAttempt } from "@/lib/twofa/factor";
import { nowSeconds } from "@/lib/time";

export const MAX_PASSKEYS = 10;

export type RelyingParty = { id: string; name: string; origin: string };

/** The relying party from ServerAddress; refused while it is unset. */
export function relyingParty(): RelyingParty {
  const address = getOption("ServerAddress").trim();
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new AppError("RULE", "passkey_needs_server_address");
  }
  return { id: url.hostname, name: getOption("SystemName").trim() || "AI Gateway", origin: url.origin };
}

export function challengeCookie(id: string, purpose: ChallengePurpose, secure: boolean): string {
  return setCookie(WEBAUTHN_COOKIE, id, CHALLENGE_TTL_SECONDS[purpose], secure);
}

export function clearChallengeCookie(secure: boolean): string {
  return clearCookie(WEBAUTHN_COOKIE, secure);
}

/** The live challenge of this browser's ceremony for purpose, consumed (single use). */
export async function takeChallenge(headers: Headers, purpose: ChallengePurpose, userId: number) {
  const step = await findChallenge(readCookie(headers, WEBAUTHN_COOKIE), purpose);
  if (!step || step.user_id !== userId || !(await consumeChallenge(step.id))) throw new AppError("RULE", "passkey_failed");
  return step;
}

/** Options for an assertion (sign-in or a fresh factor); userId 0 lets any passkey of the site answer. */
export async function beginAssertion(purpose: "passkey_login" | "passkey_verify", userId: number, https: boolean) {
  const rp = relyingParty();
  const allow = userId
    ? (await db().passkey.findMany({ where: { user_id: userId }, select: { credential_id: true, transports: true } })).map((p) => ({
        id: p.credential_id,
        transports: splitTransports(p.transports),
      }))
    : undefined;
  if (userId && allow?.length === 0) throw new AppError("RULE", "passkey_unknown");
  const options = await generateAuthenticationOptions({ rpID: rp.id, allowCredentials: allow, userVerification: "required", timeout: 120_000 });
  const id = await createChallenge(purpose, userId, options.challenge);
  return { options, cookie: challengeCookie(id, purpose, https) };
}

type Transport = "ble" | "cable" | "hybrid" | "internal" | "nfc" | "smart-card" | "usb";
const TRANSPORTS = new Set<string>(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);
export function splitTransports(stored: string): Transport[] {
  return stored.split(",").filter((t): t is Transport => TRANSPORTS.has(t));
}

/**
 * Verifies an assertion against this browser's challenge: the passkey must be registered
 * (and the given user's, when userId is set), the signature, origin, RP ID and user
 * verification valid, and the signature counter must move forward (when the authenticator
 * keeps one). Answers the passkey's owner.
 */
export async function finishAssertion(
  headers: Headers,
  purpose: "passkey_login" | "passkey_verify",
  userId: number,
  response: AuthenticationResponseJSON,
): Promise<number> {
  const rp = relyingParty();
  const step = await takeChallenge(headers, purpose, userId);
  const passkey = await db().passkey.findUnique({ where: { credential_id: response.id } });
  if (!passkey || (userId && passkey.user_id !== userId)) throw new AppError("RULE", "passkey_unknown");
  await countAttempt(passkey.user_id);
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: step.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, "base64url")),
        counter: Number(passkey.counter),
        transports: splitTransports(passkey.transports),
      },
      requireUserVerification: true,
    });
  } catch {
    throw new AppError("RULE", "passkey_failed");
  }
  if (!verified.verified) throw new AppError("RULE", "passkey_failed");
  // The counter moves under a guard on its old value, so that one assertion counts once.
  const moved = await db().passkey.updateMany({
    where: { id: passkey.id, counter: passkey.counter },
    data: { counter: BigInt(verified.authenticationInfo.newCounter), last_used_at: BigInt(nowSeconds()) },
  });
  if (moved.count !== 1) throw new AppError("RULE", "passkey_failed");
  return passkey.user_id;
}
