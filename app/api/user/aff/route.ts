// GET /api/user/aff: the caller's invitation code
import { route } from "@/lib/http/route";
import { getAffCode } from "@/lib/users/aff";

export const GET = route({ access: "user" }, async ({ ctx }) => getAffCode({ ctx }));
