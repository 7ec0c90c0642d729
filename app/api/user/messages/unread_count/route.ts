// GET /api/user/messages/unread_count: unread inbox messages of the caller
import { route } from "@/lib/http/route";
import { unreadCount } from "@/lib/users/unread-count";

export const GET = route({ access: "user" }, async ({ ctx }) => unreadCount({ ctx }));
