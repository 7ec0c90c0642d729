// POST /api/user/topup?turnstile: redeem a code ({key}); answers {quota, is_gift} (docs/redemptions.md)
// GET /api/user/topup?p&page_size&keyword: every top-up order (root, or an admin with billing:topups), searched by trade number, user id or username
import { z } from "zod";
import { page, pageSize } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { listAllTopUps } from "@/lib/payments/list-all-topups";
import { redeem } from "@/lib/redemptions/redeem";
import { redeemBody } from "@/lib/redemptions/schemas";

// `turnstile` carries the human-check token, verified first when the check is on (docs/oauth.md).
export const POST = route(
  { access: "user", rateLimit: "critical", humanCheck: true, body: redeemBody, query: z.object({ turnstile: z.string().max(4096).optional() }) },
  async ({ ctx, body }) => redeem({ ctx, input: body }),
);

const listQuery = z.object({ p: page, page_size: pageSize(10), keyword: z.string().trim().max(128).optional() });

export const GET = route({ access: "admin", gate: "GET /api/user/topup", query: listQuery }, async ({ ctx, query }) =>
  listAllTopUps({ ctx, input: { page: query.p, size: query.page_size, keyword: query.keyword } }),
);
