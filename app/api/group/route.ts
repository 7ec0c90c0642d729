// GET /api/group/: every group name that has a ratio (admin pickers)
import { route } from "@/lib/http/route";
import { listGroupNames } from "@/lib/users/list-groups";

export const GET = route({ access: "admin", gate: "GET /api/group" }, async ({ ctx }) => listGroupNames({ ctx }));
