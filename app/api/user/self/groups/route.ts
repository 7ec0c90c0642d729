// GET /api/user/self/groups: groups the caller may use, with description and ratio
import { route } from "@/lib/http/route";
import { listSelfGroups } from "@/lib/users/list-groups";

export const GET = route({ access: "user" }, async ({ ctx }) => listSelfGroups({ ctx }));
