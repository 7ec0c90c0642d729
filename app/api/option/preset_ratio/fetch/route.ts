// POST /api/option/preset_ratio/fetch: merge the preset prices into the saved price options, models the admin priced untouched (root)
import { route } from "@/lib/http/route";
import { fetchPresets } from "@/lib/price-presets/fetch-presets";

export const POST = route({ access: "root", demoBlocked: true }, async ({ ctx }) => fetchPresets({ ctx }));
