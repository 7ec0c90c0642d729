// GET /api/user/sessions: the caller's console sessions (device, address, created, last seen; the current one marked)
import { route } from "@/lib/http/route";
import { listSessions } from "@/lib/sessions/manage";

export const GET = route({ access: "user" }, async ({ ctx }) => listSessions({ ctx }));
