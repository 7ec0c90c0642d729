// GET /api/token/search?keyword&token: the caller's tokens by name and by a fragment of the key
import { z } from "zod";
import { route } from "@/lib/http/route";
import { page, pageSize } from "@/lib/http/params";
import { searchTokens } from "@/lib/tokens/search-tokens";

const query = z.object({ keyword: z.string().max(200).optional(), token: z.string().max(200).optional(), p: page, size: pageSize(100, 1000) });
export const GET = route({ access: "user", query }, async ({ ctx, query }) =>
  searchTokens({ ctx, input: { keyword: query.keyword, token: query.token, page: query.p, size: query.size } }),
);
