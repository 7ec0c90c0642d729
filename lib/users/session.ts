// The Set-Cookie value of a fresh console session for user (after login or a password change).
import "server-only";
import type { User } from "@/generated/sqlite/client";
import { passwordVersion, sealSession, sessionCookie } from "@/lib/auth/session";
import { nowSeconds } from "@/lib/time";

export async function sessionCookieFor(user: Pick<User, "id" | "password">, https: boolean): Promise<string> {
  return sessionCookie(await sealSession({ uid: user.id, pv: passwordVersion(user.password), iat: nowSeconds() }), https);
}
