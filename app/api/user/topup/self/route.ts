// GET /api/user/topup/self?p&page_size&keyword: the caller's top-up orders, newest first
import { z } from "zod";
import { page, pageSize } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { listOwnTopUps } from "@/lib/payments/list-own-topups";

const query = z.object({ p: page, page_size: pageSize(10), keyword: z.string().trim().max(128).optional() });

export const GET = route({ access: "user", query }, async ({ ctx, query }) =>
  listOwnTopUps({ ctx, input: { page: query.p, size: query.page_size, keyword: query.keyword } }),
);
