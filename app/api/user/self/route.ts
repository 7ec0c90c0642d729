// GET /api/user/self: the caller's own user record
import { clearSessionCookie } from "@/lib/auth/session";
import { Reply, route } from "@/lib/http/route";
import { deleteSelf } from "@/lib/users/delete-self";
import { getSelf } from "@/lib/users/get-self";
import { updateSelfBody } from "@/lib/users/schemas";
import { updateSelf } from "@/lib/users/update-self";

export const GET = route({ access: "user" }, async ({ ctx }) => getSelf({ ctx }));

// PUT /api/user/self: change display name and/or password (a new session cookie after a password change)
export const PUT = route({ access: "user", body: updateSelfBody, demoBlocked: true }, async ({ ctx, body }) => {
  const { user, cookie } = await updateSelf({ ctx, input: body });
  return new Reply({ data: user, headers: cookie ? { "set-cookie": cookie } : undefined });
});

// DELETE /api/user/self: deregister the caller's account and end the session
export const DELETE = route({ access: "user", demoBlocked: true }, async ({ ctx }) => {
  await deleteSelf({ ctx });
  return new Reply({ headers: { "set-cookie": clearSessionCookie(ctx.https) } });
});
