// GET /api/redemption/?p&page_size: every code, newest first (admin; codes never shown)
// POST /api/redemption/: create count (1..100) codes, or one with the given key; answers the codes, once
// PUT /api/redemption/ (?status_only=true): edit an unused code, or only enable / disable it
import { z } from "zod";
import { route } from "@/lib/http/route";
import { page, pageSize } from "@/lib/http/params";
import { createRedemptions } from "@/lib/redemptions/create-redemptions";
import { listRedemptions } from "@/lib/redemptions/list-redemptions";
import { createRedemptionBody, updateRedemptionBody } from "@/lib/redemptions/schemas";
import { updateRedemption } from "@/lib/redemptions/update-redemption";

const listQuery = z.object({ p: page, page_size: pageSize(10) });

export const GET = route({ access: "admin", gate: "GET /api/redemption", query: listQuery }, async ({ ctx, query }) =>
  listRedemptions({ ctx, input: { page: query.p, size: query.page_size } }),
);

export const POST = route({ access: "admin", gate: "POST /api/redemption", body: createRedemptionBody }, async ({ ctx, body }) =>
  createRedemptions({ ctx, input: body }),
);

export const PUT = route(
  { access: "admin", gate: "PUT /api/redemption", body: updateRedemptionBody, query: z.object({ status_only: z.string().optional() }) },
  async ({ ctx, body, query }) => updateRedemption({ ctx, input: { fields: body, statusOnly: query.status_only === "true" || query.status_only === "1" } }),
);
