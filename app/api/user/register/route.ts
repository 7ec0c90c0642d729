// POST /api/user/register: self-registration with a password (optional invitation code)
import { route } from "@/lib/http/route";
import { register } from "@/lib/users/register";
import { registerBody } from "@/lib/users/schemas";

export const POST = route({ access: "public", body: registerBody, rateLimit: "critical", humanCheck: true }, async ({ ctx, body }) =>
  register({ ctx, input: body }),
);
