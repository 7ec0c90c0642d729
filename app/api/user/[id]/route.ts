// GET /api/user/{id}: one user for the admin editor
import { route } from "@/lib/http/route";
import { getUser } from "@/lib/users/get-user";
import { idParams } from "@/lib/http/params";

export const GET = route({ access: "admin", gate: "GET /api/user/{id}", params: idParams }, async ({ ctx, params }) => getUser({ ctx, input: params }));
