// GET /api/user/messages/{id}: one message of the caller's inbox
import { route } from "@/lib/http/route";
import { idParams } from "@/lib/http/params";
import { getInboxMessage } from "@/lib/messages/get-inbox-message";

export const GET = route({ access: "user", params: idParams }, async ({ ctx, params }) => getInboxMessage({ ctx, input: params.id }));
