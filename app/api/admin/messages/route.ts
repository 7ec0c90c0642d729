// GET /api/admin/messages?p&page_size: messages newest first, with recipient counts (admin)
// POST /api/admin/messages: send a message (title, content, format, user_ids) (admin)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { page, pageSize } from "@/lib/http/params";
import { createMessage } from "@/lib/messages/create-message";
import { listMessages } from "@/lib/messages/list-messages";
import { createMessageBody } from "@/lib/messages/schemas";

const listQuery = z.object({ p: page, page_size: pageSize(10) });

export const GET = route({ access: "admin", gate: "GET /api/admin/messages", query: listQuery }, async ({ ctx, query }) =>
  listMessages({ ctx, input: { page: query.p, size: query.page_size } }),
);
export const POST = route({ access: "admin", gate: "POST /api/admin/messages", body: createMessageBody }, async ({ ctx, body }) =>
  createMessage({ ctx, input: body }),
);
