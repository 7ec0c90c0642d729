// The cookies of the second factor (docs/two-factor.md, "Pending steps"): HttpOnly,
// SameSite=Lax, Secure over HTTPS. A pending step's cookie holds only the random id of its
// auth_challenges row; the fresh-factor proof is an iron-session seal of {uid, pv, exp}.
import "server-only";
import { sealData, unsealData } from "iron-session";
import { derivedKey } from "@/lib/auth/keys";
import { passwordVersion } from "@/lib/auth/session";
import { nowSeconds } from "@/lib/time";

export const PENDING_LOGIN_COOKIE = "twofa_pending";
export const WEBAUTHN_COOKIE = "webauthn_step";
export const FRESH_COOKIE = "twofa_fresh";
// How long a sensitive action may follow the second factor.
export const FRESH_SECONDS = 5 * 60;

export function readCookie(headers: Headers, name: string): string | undefined {
  return headers.get("cookie")?.match(new RegExp(`(?:^|;\\s*)${name}=([^;]*)`))?.[1];
}

export function setCookie(name: string, value: string, maxAge: number, secure: boolean): string {
  const parts = [`${name}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAge}`];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

export function clearCookie(name: string, secure: boolean): string {
  return setCookie(name, "", 0, secure);
}

type Fresh = { uid: number; pv: string; exp: number };
const freshPassword = () => derivedKey("twofa-fresh").toString("base64");

/** The Set-Cookie value proving that user gave a second factor just now. */
export async function freshCookieFor(user: { id: number; password: string }, secure: boolean): Promise<string> {
  const exp = nowSeconds() + FRESH_SECONDS;
  const sealed = await sealData({ uid: user.id, pv: passwordVersion(user.password), exp } satisfies Fresh, {
    password: freshPassword(),
    ttl: FRESH_SECONDS + 60,
  });
  return setCookie(FRESH_COOKIE, sealed, FRESH_SECONDS, secure);
}

/** Until when (unix seconds) the caller's fresh-factor proof holds for user; 0 without one. */
export async function freshUntil(headers: Headers, user: { id: number; password: string }): Promise<number> {
  const sealed = readCookie(headers, FRESH_COOKIE);
  if (!sealed) return 0;
  try {
    const data = await unsealData<Partial<Fresh>>(sealed, { password: freshPassword(), ttl: FRESH_SECONDS + 60 });
    if (data.uid !== user.id || data.pv !== passwordVersion(user.password) || typeof data.exp !== "number") return 0;
    return data.exp > nowSeconds() ? data.exp : 0;
  } catch {
    return 0;
  }
}
