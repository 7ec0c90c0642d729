// The calling user's own record, and whether it has a password: an account made through a
// provider has none until it sets a first one (lib/users/update-self.ts), which the console's
// password dialog needs to know.
import "server-only";
import type { UserCtx } from "@/lib/http/route";
import { presentUser } from "@/lib/users/present";

export async function getSelf({ ctx }: { ctx: UserCtx }) {
  return Object.assign(presentUser(ctx.user), { has_password: ctx.user.password !== "" });
}
