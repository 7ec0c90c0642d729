// What a verified provider identity does (docs/oauth.md, "Rules"):
// - a bind (the sign-in was started by a signed-in user): the identity is written to that
//   user's column, unless another user holds it;
// - otherwise the user bound to it signs in (refused when banned or deregistered), or, when
//   nobody is, a new account is made if registration is open, carrying the invitation code
//   given when the sign-in started (rewards as for a password registration, through the
//   ledger). Accounts made this way have no password.
// - a user with TOTP on gets no session: the same pending step as a password login
//   (lib/users/login.ts), completed by POST /api/user/login/2fa (docs/two-factor.md).
// The partial unique indexes of migration 0007 make "one user per identity" hold under
// concurrent callbacks too.
import "server-only";
import type { User } from "@/generated/sqlite/client";
import { ROLE } from "@/lib/auth/roles";
import { changeUserQuota } from "@/lib/billing/ledger";
import type { Ctx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getBool, getNumber } from "@/lib/options/store";
import type { OptionKey } from "@/lib/options/registry";
import { randomAlnum } from "@/lib/auth/lookup-hash";
import { newAffCode } from "@/lib/users/aff-code";
import { isUniqueViolation, TX_OPTIONS } from "@/lib/users/db-errors";
import { presentUser, type PublicUser } from "@/lib/users/present";
import { passwordVersion } from "@/lib/auth/session";
import { startSession } from "@/lib/sessions/start";
import { createChallenge, CHALLENGE_TTL_SECONDS } from "@/lib/twofa/challenges";
import { PENDING_LOGIN_COOKIE, setCookie } from "@/lib/twofa/cookies";
import { totpEnabled } from "@/lib/twofa/factor";
import type { Identity } from "@/lib/oauth/exchange";
import { BINDING_COLUMN, USERNAME_PREFIX, type Provider } from "@/lib/oauth/providers";
import { nowSeconds } from "@/lib/time";
import { USER_STATUS } from "@/lib/statuses";
import { recordAudit } from "@/lib/audit/record";

export type SignInResult = { kind: "bind" } | { kind: "login"; user: PublicUser; cookie: string } | { kind: "require_2fa"; cookie: string };

const MAX_NAME = 20;
const nonNegative = (key: OptionKey) => BigInt(Math.max(0, Math.trunc(getNumber(key, 0))));

export async function bindIdentity(userId: number, provider: Provider, id: string): Promise<void> {
  const column = BINDING_COLUMN[provider];
  const holder = await db().user.findFirst({ where: { [column]: id }, select: { id: true } });
  if (holder && holder.id !== userId) throw new AppError("RULE", "oauth_already_bound");
  if (holder) return;
  try {
    await db().user.update({ where: { id: userId }, data: { [column]: id } });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("RULE", "oauth_already_bound");
    throw err;
  }
}

async function logIn(ctx: Ctx, user: User, provider: Provider): Promise<SignInResult> {
  const method = `oauth:${provider}`;
  const target = { type: "user" as const, id: user.id };
  if (user.deleted_at !== null || user.status !== USER_STATUS.enabled) {
    const reason = user.deleted_at !== null ? "deregistered" : "banned";
    await recordAudit(ctx, { action: "login_failed", actor: null, target, detail: { method, reason } });
    throw new AppError("RULE", reason === "banned" ? "user_banned" : "oauth_account_deregistered");
  }
  if (await totpEnabled(user.id)) {
    // As for a password login: the step remembers the password version.
    const id = await createChallenge("login_2fa", user.id, passwordVersion(user.password));
    await recordAudit(ctx, { action: "login_2fa_required", actor: user, target, detail: { method } });
    return { kind: "require_2fa", cookie: setCookie(PENDING_LOGIN_COOKIE, id, CHALLENGE_TTL_SECONDS.login_2fa, ctx.https) };
  }
  const updated = await db().user.update({ where: { id: user.id }, data: { last_login_time: BigInt(nowSeconds()), language: ctx.locale } });
  const cookie = await startSession(ctx, updated);
  await recordAudit(ctx, { action: "login", actor: updated, target, detail: { method } });
  return { kind: "login", user: presentUser(updated), cookie };
}

async function signUp(provider: Provider, identity: Identity, aff: string): Promise<{ user: User; created: boolean }> {
  if (!getBool("RegisterEnabled") || getBool("SelfUseModeEnabled")) throw new AppError("RULE", "register_disabled");
  const column = BINDING_COLUMN[provider];
  const newUserQuota = nonNegative("QuotaForNewUser");
  const inviterReward = nonNegative("QuotaForInviter");
  const inviteeReward = nonNegative("QuotaForInvitee");
  const display = (identity.displayName || identity.username || USERNAME_PREFIX[provider].replace(/_$/, "")).slice(0, MAX_NAME);
  for (let attempt = 0; ; attempt++) {
    try {
      const user = await db().$transaction(async (tx) => {
        const inviter = aff && getBool("AffEnabled") ? await tx.user.findFirst({ where: { aff_code: aff, deleted_at: null }, select: { id: true } }) : null;
        const created = await tx.user.create({
          data: {
            username: `${USERNAME_PREFIX[provider]}${randomAlnum(12 - USERNAME_PREFIX[provider].length)}`,
            password: "",
            display_name: display,
            role: ROLE.user,
            status: USER_STATUS.enabled,
            group: "default",
            aff_code: newAffCode(),
            inviter_id: inviter?.id ?? 0,
            created_time: BigInt(nowSeconds()),
            [column]: identity.id,
          },
        });
        // The readable name (prefix and number) when it is free; the random one otherwise.
        const readable = `${USERNAME_PREFIX[provider]}${created.id}`;
        if (readable.length <= 12 && !(await tx.user.findUnique({ where: { username: readable }, select: { id: true } }))) {
          await tx.user.update({ where: { id: created.id }, data: { username: readable } });
        }
        if (newUserQuota > 0n) await changeUserQuota(tx, { userId: created.id, delta: newUserQuota, kind: "register_bonus" });
        if (inviter) {
          await tx.user.update({
            where: { id: inviter.id },
            data: { aff_count: { increment: 1 }, aff_quota: { increment: inviterReward }, aff_history_quota: { increment: inviterReward } },
          });
          if (inviteeReward > 0n) await changeUserQuota(tx, { userId: created.id, delta: inviteeReward, kind: "invitee_bonus", ref: `inviter:${inviter.id}` });
        }
        return tx.user.findUniqueOrThrow({ where: { id: created.id } });
      }, TX_OPTIONS);
      return { user, created: true };
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 2) throw err;
      // The identity was bound meanwhile (a concurrent callback): sign that account in.
      const bound = await db().user.findFirst({ where: { [column]: identity.id } });
      if (bound) return { user: bound, created: false };
    }
  }
}

export async function signInWith(ctx: Ctx, provider: Provider, identity: Identity, opts: { bindUserId: number; aff: string }): Promise<SignInResult> {
  if (opts.bindUserId) {
    await bindIdentity(opts.bindUserId, provider, identity.id);
    return { kind: "bind" };
  }
  const existing = await db().user.findFirst({ where: { [BINDING_COLUMN[provider]]: identity.id } });
  if (existing) return logIn(ctx, existing, provider);
  const made = await signUp(provider, identity, opts.aff);
  // a concurrent callback may have made the account: the sign-up is recorded by the one that made it
  if (made.created)
    await recordAudit(ctx, { action: "register", actor: made.user, target: { type: "user", id: made.user.id }, detail: { method: `oauth:${provider}` } });
  return logIn(ctx, made.user, provider);
}
