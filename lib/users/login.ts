// Password login by username or e-mail. Every failure that could tell whether an account
// exists (unknown, wrong password, deregistered) answers the same login_failed; a banned
// account that gave the right password is told it is banned. A login records the console's
// language, in which the user's notifications are written (docs/notifications.md).
import "server-only";
import { verifyPassword } from "@/lib/auth/password";
import { USER_STATUS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { nowSeconds } from "@/lib/billing/ledger";
import type { Ctx } from "@/lib/http/route";
import { getBool } from "@/lib/options/store";
import { presentUser, type PublicUser } from "@/lib/users/present";
import { sessionCookieFor } from "@/lib/users/session";

// A fixed scrypt hash to verify against when the account is unknown, so that the answer
// takes as long as for a known account.
const DUMMY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

export async function login({ ctx, input }: { ctx: Ctx; input: { username: string; password: string } }): Promise<{ user: PublicUser; cookie: string }> {
  if (!getBool("PasswordLoginEnabled")) throw new AppError("RULE", "password_login_disabled");
  const name = input.username.trim();
  let user = await db().user.findUnique({ where: { username: name } });
  if (!user && name.includes("@")) {
    // Addresses are unique by their lowercased key (docs/accounts-api.md, "E-mail addresses").
    user = await db().user.findFirst({ where: { email_key: name.toLowerCase(), deleted_at: null } });
  }
  const ok = await verifyPassword(input.password, user?.password ?? DUMMY_HASH);
  if (!user || !ok || user.deleted_at !== null) throw new AppError("RULE", "login_failed");
  if (user.status !== USER_STATUS.enabled) throw new AppError("RULE", "user_banned");
  const updated = await db().user.update({ where: { id: user.id }, data: { last_login_time: BigInt(nowSeconds()), language: ctx.locale } });
  return { user: presentUser(updated), cookie: await sessionCookieFor(updated, ctx.https) };
}
