// GET /api/redemption/count-by-name?name: how many codes carry exactly this name (admin)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { countByName } from "@/lib/redemptions/count-by-name";

export const GET = route(
  { access: "admin", gate: "GET /api/redemption/count-by-name", query: z.object({ name: z.string().max(200).optional() }) },
  async ({ ctx, query }) => countByName({ ctx, input: query }),
);
