// GET /api/user/logout: ends the caller's session for good and clears the session cookie
import { clearSessionCookie } from "@/lib/auth/session";
import { Reply, route } from "@/lib/http/route";
import { logout } from "@/lib/sessions/manage";

export const GET = route({ access: "public" }, async ({ ctx }) => {
  await logout({ ctx });
  return new Reply({ headers: { "set-cookie": clearSessionCookie(ctx.https) } });
});
