// POST /api/user/login: password login; sets the session cookie and returns the user
import { Reply, route } from "@/lib/http/route";
import { login } from "@/lib/users/login";
import { loginBody } from "@/lib/users/schemas";

export const POST = route({ access: "public", body: loginBody, rateLimit: "critical" }, async ({ ctx, body }) => {
  const { user, cookie } = await login({ ctx, input: body });
  return new Reply({ data: user, headers: { "set-cookie": cookie } });
});
