// The state of a third-party sign-in (docs/oauth.md, "State"): 32 random bytes from the
// CSPRNG, handed to the browser and stored only as a sha256, single use, valid ten minutes,
// and bound to the browser that asked for it by an HttpOnly cookie (oauth_browser) whose
// hash is stored with it. A state asked for by a signed-in user is a bind for that user.
// Rows live in the database so that every node sees them.
import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { nowSeconds } from "@/lib/time";

export const STATE_TTL_SECONDS = 600;
export const BROWSER_COOKIE = "oauth_browser";

const sha = (v: string) => createHash("sha256").update(v).digest("base64url");

function cookieValue(headers: Headers, name: string): string | undefined {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

export type IssuedState = { state: string; cookie: string };

export async function newState(input: { headers: Headers; https: boolean; userId: number; aff: string }): Promise<IssuedState> {
  let browser = cookieValue(input.headers, BROWSER_COOKIE);
  if (!browser || !/^[A-Za-z0-9_-]{43}$/.test(browser)) browser = randomBytes(32).toString("base64url");
  // Sent again with every state, so that the cookie outlives the newest state (a cookie set
  // for an older state could expire while the newer one is still valid).
  const cookie = `${BROWSER_COOKIE}=${browser}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${STATE_TTL_SECONDS}${input.https ? "; Secure" : ""}`;
  const state = randomBytes(32).toString("base64url");
  const now = nowSeconds();
  // Expired rows are swept as new ones come.
  await db().oAuthState.deleteMany({ where: { created_at: { lt: BigInt(now - STATE_TTL_SECONDS) } } });
  await db().oAuthState.create({
    data: { state_hash: sha(state), browser_hash: sha(browser), user_id: input.userId, aff: input.aff.slice(0, 32), created_at: BigInt(now) },
  });
  return { state, cookie };
}

/**
 * Uses a state once: refused when unknown, expired, already used, or presented by another
 * browser. Answers what was stored with it.
 */
export async function consumeState(headers: Headers, state: string): Promise<{ userId: number; aff: string }> {
  const invalid = new AppError("RULE", "oauth_state_invalid");
  if (!state || state.length > 128) throw invalid;
  const row = await db().oAuthState.findUnique({ where: { state_hash: sha(state) } });
  const browser = cookieValue(headers, BROWSER_COOKIE);
  if (!row || !browser) throw invalid;
  const a = Buffer.from(sha(browser));
  const b = Buffer.from(row.browser_hash);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw invalid;
  // The conditional delete is the single use: of two concurrent callbacks one deletes it.
  const { count } = await db().oAuthState.deleteMany({
    where: { state_hash: row.state_hash, created_at: { gte: BigInt(nowSeconds() - STATE_TTL_SECONDS) } },
  });
  if (count !== 1) throw invalid;
  return { userId: row.user_id, aff: row.aff };
}
