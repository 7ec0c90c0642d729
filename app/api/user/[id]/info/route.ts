// GET /api/user/{id}/info: the read-only user card of the usage logs (admin, any level)
import { idParams } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { getUserInfo } from "@/lib/users/get-user-info";

export const GET = route({ access: "admin", gate: "GET /api/user/{id}/info", params: idParams }, async ({ ctx, params }) =>
  getUserInfo({ ctx, input: params }),
);
