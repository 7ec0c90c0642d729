// A user edits their own display name and password. A password change needs the current
// password, except the first password of an account made through a provider (its stored
// password is empty, docs/oauth.md); either way the fresh second factor rule holds. A
// password change ends every other session of the user on every node; the caller's own
// session stays and gets a fresh cookie with the new password version (docs/accounts-api.md,
// "Sessions").
import "server-only";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { UserCtx } from "@/lib/http/route";
import { requireFreshFactor } from "@/lib/twofa/fresh";
import { presentUser, type PublicUser } from "@/lib/users/present";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/users/schemas";
import { currentSessionId, endUserSessions } from "@/lib/sessions/end";
import { renewSessionCookie } from "@/lib/sessions/start";
import { recordAudit } from "@/lib/audit/record";

export async function updateSelf({
  ctx,
  input,
}: {
  ctx: UserCtx;
  input: { display_name?: string; password?: string; original_password?: string };
}): Promise<{ user: PublicUser; cookie: string | null }> {
  const data: { display_name?: string; password?: string } = {};
  if (input.display_name !== undefined) data.display_name = input.display_name;
  const changingPassword = input.password !== undefined && input.password !== "";
  if (changingPassword) {
    const next = input.password!;
    const firstPassword = ctx.user.password === "";
    if (!firstPassword && (!input.original_password || !(await verifyPassword(input.original_password, ctx.user.password)))) {
      throw new AppError("RULE", "original_password_wrong");
    }
    if (next.length < PASSWORD_MIN) throw new AppError("INVALID_INPUT", "password_too_short");
    if (next.length > PASSWORD_MAX) throw new AppError("INVALID_INPUT", "password_too_long");
    // A fresh second factor when the user has one (docs/two-factor.md, "Sensitive actions").
    await requireFreshFactor(ctx);
    data.password = await hashPassword(next);
  }
  if (Object.keys(data).length === 0) return { user: presentUser(ctx.user), cookie: null };
  // A password change is guarded by the password we authenticated with, so that two
  // concurrent changes cannot both pass the original-password check (nor two first passwords).
  const where = changingPassword ? { id: ctx.user.id, password: ctx.user.password, deleted_at: null } : { id: ctx.user.id, deleted_at: null };
  const changed = await db().user.updateMany({ where, data });
  if (changed.count !== 1) throw new AppError("RULE", "original_password_wrong");
  const user = await db().user.findUniqueOrThrow({ where: { id: ctx.user.id } });
  if (!changingPassword) return { user: presentUser(user), cookie: null };
  await recordAudit(ctx, { action: "password_change", target: { type: "user", id: user.id }, detail: { by: "self" } });
  const sid = await currentSessionId(ctx.headers);
  await endUserSessions(user.id, { ctx, actorId: user.id, reason: "password_changed", keep: sid });
  return { user: presentUser(user), cookie: sid ? await renewSessionCookie(ctx, user, sid) : null };
}
