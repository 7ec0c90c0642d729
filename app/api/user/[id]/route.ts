// GET /api/user/{id}: one user for the admin editor
import { route } from "@/lib/http/route";
import { getUser } from "@/lib/users/get-user";
import { idParam } from "@/lib/users/schemas";

export const GET = route({ access: "admin", params: idParam }, async ({ ctx, params }) => getUser({ ctx, input: params }));
