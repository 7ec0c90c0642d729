// POST /api/user/sessions/revoke_all: end every session of the caller but the current one ("sign out everywhere else")
import { route } from "@/lib/http/route";
import { endOtherSessions } from "@/lib/sessions/manage";

export const POST = route({ access: "user" }, async ({ ctx }) => endOtherSessions({ ctx }));
