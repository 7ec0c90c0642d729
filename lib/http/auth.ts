// Who is calling a console /api route: a session cookie, or a system access token in the
// Authorization header. Either way the browser (or script) must also name the user in the
// New-Api-User header, and the two must agree (as in new-api).
import "server-only";
import type { User } from "@/generated/sqlite/client";
import { lookupHash } from "@/lib/auth/lookup-hash";
import { readSession, passwordVersion, SESSION_COOKIE } from "@/lib/auth/session";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { clientIp } from "@/lib/http/request-info";
import { liveSession, noteSeen } from "@/lib/sessions/store";
import { USER_STATUS } from "@/lib/statuses";

export const USER_HEADER = "new-api-user";

function cookieValue(cookieHeader: string | null, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

// The session's record is checked in memory (lib/sessions/store.ts, docs/accounts-api.md,
// "Sessions"): a live session costs no database read of its own, an ended one is refused on
// every node.
async function userFromSession(headers: Headers): Promise<User | null> {
  const session = await readSession(cookieValue(headers.get("cookie"), SESSION_COOKIE));
  if (!session) return null;
  const live = await liveSession(session.sid);
  if (live && live.userId !== session.uid) return null;
  const user = await db().user.findUnique({ where: { id: session.uid } });
  if (!user || passwordVersion(user.password) !== session.pv) return null;
  // An ended session is refused, except that one a ban ended still hears why while the ban
  // lasts (the spec's "This user has been banned", answered by the status check below);
  // once the user is enabled again it stays ended.
  if (!live) return user.status === USER_STATUS.enabled ? null : user;
  noteSeen(session.sid, clientIp(headers));
  return user;
}

async function userFromAccessToken(headers: Headers): Promise<User | null | "invalid"> {
  const raw = headers.get("authorization");
  if (!raw) return null;
  const token = raw.replace(/^Bearer\s+/i, "").trim();
  if (!token) return null;
  const user = await db().user.findUnique({ where: { access_token_hash: lookupHash(token) } });
  return user ?? "invalid";
}

// The authenticated, active user, or an AppError (401 / 403).
export async function authenticate(headers: Headers): Promise<User> {
  let user = await userFromSession(headers);
  if (!user) {
    const byToken = await userFromAccessToken(headers);
    if (byToken === "invalid") throw new AppError("UNAUTHENTICATED", "access_token_invalid");
    user = byToken;
  }
  if (!user || user.deleted_at !== null) throw new AppError("UNAUTHENTICATED", "not_logged_in");
  const claimed = headers.get(USER_HEADER);
  if (!claimed) throw new AppError("UNAUTHENTICATED", "missing_user_header");
  if (claimed !== String(user.id)) throw new AppError("UNAUTHENTICATED", "user_header_mismatch");
  // BANNED: HTTP 200 with success:false on the console, as new-api answers it (a 403 would be
  // shown by the console's catalogue as "insufficient permission" instead of "banned"); 403
  // on the playground's relay route (lib/errors.ts).
  if (user.status !== USER_STATUS.enabled) throw new AppError("BANNED", "user_banned");
  return user;
}

// The session user if there is a valid one, without the header rule (pages, optional auth).
export async function optionalSessionUser(headers: Headers): Promise<User | null> {
  const user = await userFromSession(headers);
  if (!user || user.deleted_at !== null || user.status !== USER_STATUS.enabled) return null;
  return user;
}
