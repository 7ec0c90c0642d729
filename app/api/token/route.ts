// GET /api/token/?p&size: the caller's tokens (keys masked)
// POST /api/token/: create one token, or count (1..100) with suffixed names; answers them with full keys
// PUT /api/token/ (?status_only=true): update a token of the caller
import { z } from "zod";
import { route } from "@/lib/http/route";
import { page, pageSize } from "@/lib/http/params";
import { createTokenBody, updateTokenBody } from "@/lib/tokens/schemas";
import { createTokens } from "@/lib/tokens/create-tokens";
import { listTokens } from "@/lib/tokens/list-tokens";
import { updateToken } from "@/lib/tokens/update-token";

const listQuery = z.object({ p: page, size: pageSize(10), page_size: z.string().optional() });

export const GET = route({ access: "user", query: listQuery }, async ({ ctx, query }) => {
  const size = query.page_size ? Math.min(100, Math.max(1, Number(query.page_size) || 10)) : query.size;
  return listTokens({ ctx, input: { page: query.p, size } });
});

export const POST = route({ access: "user", body: createTokenBody }, async ({ ctx, body }) => createTokens({ ctx, input: body }));

export const PUT = route({ access: "user", body: updateTokenBody, query: z.object({ status_only: z.string().optional() }) }, async ({ ctx, body, query }) =>
  updateToken({ ctx, input: { fields: body, statusOnly: query.status_only === "true" || query.status_only === "1" } }),
);
