// PUT /api/user/messages/{id}/read: mark one of the caller's messages read (the first read time is kept)
import { route } from "@/lib/http/route";
import { idParams } from "@/lib/http/params";
import { markRead } from "@/lib/messages/mark-read";

export const PUT = route({ access: "user", params: idParams }, async ({ ctx, params }) => markRead({ ctx, input: params.id }));
