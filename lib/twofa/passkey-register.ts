// Registering a passkey from /app/me: POST /api/user/passkey/register/begin answers the
// creation options (the user's passkeys excluded) and binds the challenge to the browser;
// POST /api/user/passkey/register/finish {name, response} verifies the attestation and
// stores the credential (its public key, counter and transports).
import "server-only";
import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from "@simplewebauthn/server";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { createChallenge } from "@/lib/twofa/challenges";
import { requireFreshFactor } from "@/lib/twofa/fresh";
import { MAX_PASSKEYS, challengeCookie, clearChallengeCookie, relyingParty, splitTransports, takeChallenge } from "@/lib/twofa/passkeys";
import { nowSeconds } from "@/lib/time";
import { recordAudit } from "@/lib/audit/record";

export async function beginPasskeyRegistration({ ctx }: { ctx: UserCtx }) {
  const rp = relyingParty();
  // A new passkey is itself a second factor: a user who has one must prove it first, or a
  // stolen session could add its own and pass every fresh-factor check.
  await requireFreshFactor(ctx);
  const existing = await db().passkey.findMany({ where: { user_id: ctx.user.id }, select: { credential_id: true, transports: true } });
  if (existing.length >= MAX_PASSKEYS) throw new AppError("RULE", "passkey_limit", { max: MAX_PASSKEYS });
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: ctx.user.username,
    userDisplayName: ctx.user.display_name || ctx.user.username,
    userID: new TextEncoder().encode(`user-${ctx.user.id}`),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: splitTransports(p.transports) })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    timeout: 120_000,
  });
  const id = await createChallenge("passkey_register", ctx.user.id, options.challenge);
  return { options, cookie: challengeCookie(id, "passkey_register", ctx.https) };
}

export async function finishPasskeyRegistration({ ctx, input }: { ctx: UserCtx; input: { name: string; response: RegistrationResponseJSON } }) {
  const rp = relyingParty();
  const step = await takeChallenge(ctx.headers, "passkey_register", ctx.user.id);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: step.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    throw new AppError("RULE", "passkey_failed");
  }
  if (!verified.verified) throw new AppError("RULE", "passkey_failed");
  const { credential } = verified.registrationInfo;
  if ((await db().passkey.count({ where: { user_id: ctx.user.id } })) >= MAX_PASSKEYS) throw new AppError("RULE", "passkey_limit", { max: MAX_PASSKEYS });
  try {
    const row = await db().passkey.create({
      data: {
        user_id: ctx.user.id,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString("base64url"),
        counter: BigInt(credential.counter),
        transports: (credential.transports ?? []).join(","),
        name: input.name.trim() || `Passkey ${new Date().toISOString().slice(0, 10)}`,
        created_at: BigInt(nowSeconds()),
      },
    });
    await recordAudit(ctx, { action: "passkey_add", userId: ctx.user.id, target: { type: "passkey", id: row.id }, detail: { name: row.name } });
    return { passkey: { id: row.id, name: row.name, created_at: Number(row.created_at), last_used_at: 0 }, cookie: clearChallengeCookie(ctx.https) };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("RULE", "passkey_failed");
    throw err;
  }
}
