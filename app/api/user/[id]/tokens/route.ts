// GET /api/user/{id}/tokens?p&page_size: a user's API tokens, keys masked (root, or an admin with tokens:read)
import { z } from "zod";
import { idParams, page, pageSize } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { listUserTokens } from "@/lib/tokens/list-user-tokens";

const query = z.object({ p: page, page_size: pageSize(10) });

export const GET = route({ access: "admin", gate: "GET /api/user/{id}/tokens", params: idParams, query }, async ({ ctx, params, query }) =>
  listUserTokens({ ctx, input: { id: params.id, page: query.p, size: query.page_size } }),
);
