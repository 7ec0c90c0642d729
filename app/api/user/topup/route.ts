// GET /api/user/topup?p&page_size&keyword: every top-up order (root), searched by trade number, user id or username
import { z } from "zod";
import { page, pageSize } from "@/lib/channels/query";
import { route } from "@/lib/http/route";
import { listAllTopUps } from "@/lib/payments/list-all-topups";

const listQuery = z.object({ p: page, page_size: pageSize(10), keyword: z.string().trim().max(128).optional() });

export const GET = route({ access: "root", query: listQuery }, async ({ ctx, query }) =>
  listAllTopUps({ ctx, input: { page: query.p, size: query.page_size, keyword: query.keyword } }),
);
