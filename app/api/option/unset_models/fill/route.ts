// POST /api/option/unset_models/fill: give the named unset models (all when none is named) their preset prices (admin: they write the price options, as PUT /api/option/ lets admins)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { fillUnsetModels } from "@/lib/price-presets/fill-unset";

const fillBody = z.object({ models: z.array(z.string().min(1).max(200)).max(5000).optional() });

export const POST = route({ access: "admin", gate: "POST /api/option/unset_models/fill", body: fillBody, demoBlocked: true }, async ({ ctx, body }) =>
  fillUnsetModels({ ctx, input: body }),
);
