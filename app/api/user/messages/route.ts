// GET /api/user/messages?p&page_size: the caller's inbox, newest first
import { z } from "zod";
import { route } from "@/lib/http/route";
import { page, pageSize } from "@/lib/http/params";
import { listInbox } from "@/lib/messages/list-inbox";

const query = z.object({ p: page, page_size: pageSize(10) });
export const GET = route({ access: "user", query }, async ({ ctx, query }) => listInbox({ ctx, input: { page: query.p, size: query.page_size } }));
