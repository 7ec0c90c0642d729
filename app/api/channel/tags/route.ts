// GET /api/channel/tags?offset&limit: distinct channel tags (limit at most 200)
import { z } from "zod";
import { MAX_INT32 } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { listTags } from "@/lib/channels/list";

const query = z.object({
  offset: z.coerce.number().int().min(0).max(MAX_INT32).optional().catch(0),
  limit: z.coerce.number().int().max(MAX_INT32).optional().catch(200),
});
export const GET = route({ access: "admin", gate: "GET /api/channel/tags", query }, async ({ ctx, query }) =>
  listTags({ ctx, input: { offset: query.offset ?? 0, limit: Math.min(200, Math.max(1, query.limit ?? 200)) } }),
);
