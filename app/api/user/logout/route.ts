// GET /api/user/logout: clears the session cookie
import { clearSessionCookie } from "@/lib/auth/session";
import { Reply, route } from "@/lib/http/route";

export const GET = route({ access: "public" }, async ({ ctx }) => new Reply({ headers: { "set-cookie": clearSessionCookie(ctx.https) } }));
