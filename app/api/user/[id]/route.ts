// GET /api/user/{id}: one user for the admin editor
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { getUser } from "@/lib/users/get-user";
import { idParam } from "@/lib/users/schemas";

export const GET = route({ access: "admin" }, async ({ ctx, params }) => {
  const parsed = idParam.safeParse(params);
  if (!parsed.success) throw new AppError("INVALID_INPUT", "invalid_parameter");
  return getUser({ ctx, input: parsed.data });
});
