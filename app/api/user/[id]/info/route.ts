// GET /api/user/{id}/info: the read-only user card of the usage logs (admin, any level)
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { getUserInfo } from "@/lib/users/get-user-info";
import { idParam } from "@/lib/users/schemas";

export const GET = route({ access: "admin" }, async ({ ctx, params }) => {
  const parsed = idParam.safeParse(params);
  if (!parsed.success) throw new AppError("INVALID_INPUT", "invalid_parameter");
  return getUserInfo({ ctx, input: parsed.data });
});
