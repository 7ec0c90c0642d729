// GET /api/admin/messages/search?keyword&start_date&end_date&p&page_size: messages by title or content and creation date (admin)
import { route } from "@/lib/http/route";
import { page, pageSize } from "@/lib/http/params";
import { listMessages } from "@/lib/messages/list-messages";
import { searchMessagesQuery } from "@/lib/messages/schemas";

const query = searchMessagesQuery.extend({ p: page, page_size: pageSize(10) });
export const GET = route({ access: "admin", gate: "GET /api/admin/messages/search", query }, async ({ ctx, query }) =>
  listMessages({ ctx, input: { keyword: query.keyword, start_date: query.start_date, end_date: query.end_date, page: query.p, size: query.page_size } }),
);
