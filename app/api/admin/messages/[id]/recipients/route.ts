// GET /api/admin/messages/{id}/recipients?p&page_size: recipients with read status and time (admin)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { page, pageSize } from "@/lib/http/params";
import { idParams } from "@/lib/http/params";
import { listRecipients } from "@/lib/messages/list-recipients";

const query = z.object({ p: page, page_size: pageSize(10) });
export const GET = route({ access: "admin", gate: "GET /api/admin/messages/{id}/recipients", params: idParams, query }, async ({ ctx, params, query }) =>
  listRecipients({ ctx, input: { id: params.id, page: query.p, size: query.page_size } }),
);
