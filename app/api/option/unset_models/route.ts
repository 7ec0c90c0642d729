// GET /api/option/unset_models: models configured on channels with neither a price nor a ratio (admin)
import { route } from "@/lib/http/route";
import { listUnsetModels } from "@/lib/price-presets/unset-models";

export const GET = route({ access: "admin", gate: "GET /api/option/unset_models" }, async ({ ctx }) => listUnsetModels({ ctx }));
