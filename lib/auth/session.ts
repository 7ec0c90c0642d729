// The console session: an iron-session sealed cookie (HttpOnly, SameSite=Lax, Secure when
// the request came over HTTPS) that carries the user id, the user's password version and
// the id of the session's server-side record (docs/accounts-api.md, "Sessions"), so that
// logout, "sign out everywhere" and a password change end sessions for good. A cookie
// without a session id (sealed before sessions were recorded) is refused.
import "server-only";
import { createHash } from "node:crypto";
import { sealData, unsealData } from "iron-session";
import type { User } from "@/generated/sqlite/client";
import { derivedKey } from "@/lib/auth/keys";
import { nowSeconds } from "@/lib/time";

export const SESSION_COOKIE = "session";
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

export type SessionData = { uid: number; pv: string; iat: number; sid: string };

function password(): string {
  return derivedKey("session").toString("base64");
}

export async function sealSession(data: SessionData): Promise<string> {
  return sealData(data, { password: password(), ttl: SESSION_TTL_SECONDS });
}

export async function readSession(sealed: string | undefined | null): Promise<SessionData | null> {
  if (!sealed) return null;
  try {
    const data = await unsealData<Partial<SessionData>>(sealed, { password: password(), ttl: SESSION_TTL_SECONDS });
    if (typeof data.uid !== "number" || typeof data.pv !== "string" || typeof data.sid !== "string" || !data.sid) return null;
    return data as SessionData;
  } catch {
    return null;
  }
}

/** The session the request's cookie carries, if its seal is good. */
export async function sessionOf(headers: Headers): Promise<SessionData | null> {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === SESSION_COOKIE) return readSession(part.slice(i + 1).trim());
  }
  return null;
}

export function sessionCookie(value: string, secure: boolean): string {
  const parts = [`${SESSION_COOKIE}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${SESSION_TTL_SECONDS}`];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

export function clearSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`;
}

// A short fingerprint of the stored password hash: changes whenever the password does.
export function passwordVersion(passwordHash: string): string {
  return createHash("sha256").update(passwordHash).digest("base64url").slice(0, 12);
}

/** The Set-Cookie value of the console session sid of user (lib/sessions/start.ts makes the record). */
export async function sessionCookieFor(user: Pick<User, "id" | "password">, sid: string, https: boolean): Promise<string> {
  return sessionCookie(await sealSession({ uid: user.id, pv: passwordVersion(user.password), iat: nowSeconds(), sid }), https);
}
