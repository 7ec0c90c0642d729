// DELETE /api/user/sessions/{id}: end one of the caller's sessions for good (the current one signs the caller out)
import { clearSessionCookie } from "@/lib/auth/session";
import { Reply, route } from "@/lib/http/route";
import { endOwnSession } from "@/lib/sessions/manage";
import { sessionIdParams } from "@/lib/sessions/schemas";

export const DELETE = route({ access: "user", params: sessionIdParams }, async ({ ctx, params }) => {
  const { current } = await endOwnSession({ ctx, input: params });
  return new Reply({ data: { current }, headers: current ? { "set-cookie": clearSessionCookie(ctx.https) } : undefined });
});
