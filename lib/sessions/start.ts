// A sign-in makes a session record (docs/accounts-api.md, "Sessions") and answers the sealed
// cookie that carries its id. Every way in goes through here: password, second factor,
// passkey, OAuth and the setup's root. The user's expired records are cleared on the way.
import "server-only";
import { randomBytes } from "node:crypto";
import type { User } from "@/generated/sqlite/client";
import { SESSION_TTL_SECONDS, sessionCookieFor } from "@/lib/auth/session";
import type { Ctx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { rememberNewSession } from "@/lib/sessions/store";
import { nowSeconds } from "@/lib/time";

export const USER_AGENT_MAX = 512;

/** Starts a session for user; the Set-Cookie value that carries it. */
export async function startSession(ctx: Ctx, user: Pick<User, "id" | "password">): Promise<string> {
  const sid = randomBytes(32).toString("base64url");
  const now = nowSeconds();
  const expiresAt = now + SESSION_TTL_SECONDS;
  await db().session.deleteMany({ where: { user_id: user.id, expires_at: { lte: BigInt(now) } } });
  await db().session.create({
    data: {
      id: sid,
      user_id: user.id,
      created_at: BigInt(now),
      last_seen_at: BigInt(now),
      expires_at: BigInt(expiresAt),
      ip: ctx.ip,
      user_agent: (ctx.headers.get("user-agent") ?? "").slice(0, USER_AGENT_MAX),
    },
  });
  rememberNewSession(sid, { userId: user.id, expiresAt });
  return sessionCookieFor(user, sid, ctx.https);
}

/** The same session's cookie again, after the user's password changed (its version is in the cookie). */
export async function renewSessionCookie(ctx: Ctx, user: Pick<User, "id" | "password">, sid: string): Promise<string> {
  return sessionCookieFor(user, sid, ctx.https);
}
