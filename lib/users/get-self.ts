// The calling user's own record.
import "server-only";
import type { UserCtx } from "@/lib/http/route";
import { presentUser } from "@/lib/users/present";

export async function getSelf({ ctx }: { ctx: UserCtx }) {
  return presentUser(ctx.user);
}
