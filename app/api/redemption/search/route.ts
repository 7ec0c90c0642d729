// GET /api/redemption/search?keyword&p&page_size: codes by id, name, or the whole code (admin)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { page, pageSize } from "@/lib/http/params";
import { searchRedemptions } from "@/lib/redemptions/search-redemptions";

const query = z.object({ keyword: z.string().max(200).optional(), p: page, page_size: pageSize(10) });
export const GET = route({ access: "admin", gate: "GET /api/redemption/search", query }, async ({ ctx, query }) =>
  searchRedemptions({ ctx, input: { keyword: query.keyword, page: query.p, size: query.page_size } }),
);
