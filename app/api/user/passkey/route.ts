// GET /api/user/passkey: the caller's passkeys
import { route } from "@/lib/http/route";
import { listPasskeys } from "@/lib/twofa/list-passkeys";

export const GET = route({ access: "user" }, async ({ ctx }) => listPasskeys({ ctx }));
