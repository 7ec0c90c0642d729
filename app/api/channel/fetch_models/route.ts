// POST /api/channel/fetch_models: list the models of an upstream given base_url, type and key (not stored)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { fetchUpstreamModels } from "@/lib/channel-admin/upstream";

const body = z.object({ base_url: z.string().max(2000).default(""), type: z.coerce.number().int().min(0).default(1), key: z.string().max(100_000) });
export const POST = route({ access: "admin", gate: "POST /api/channel/fetch_models", body }, async ({ ctx, body }) =>
  fetchUpstreamModels({ ctx, input: body }),
);
