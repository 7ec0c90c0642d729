// POST /api/user/{id}/sessions/revoke_all: (admin) end every session of a user of a lower level
import { idParams } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { endUserSessionsAsAdmin } from "@/lib/users/end-user-sessions";

export const POST = route({ access: "admin", gate: "POST /api/user/{id}/sessions/revoke_all", params: idParams }, async ({ ctx, params }) =>
  endUserSessionsAsAdmin({ ctx, input: params }),
);
