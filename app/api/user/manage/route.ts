// POST /api/user/manage: admin promote / demote / disable / enable / delete a user
import { route } from "@/lib/http/route";
import { manageUser } from "@/lib/users/manage-user";
import { manageBody } from "@/lib/users/schemas";

export const POST = route({ access: "admin", gate: "POST /api/user/manage", body: manageBody }, async ({ ctx, body }) => manageUser({ ctx, input: body }));
