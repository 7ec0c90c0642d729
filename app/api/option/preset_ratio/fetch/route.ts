// POST /api/option/preset_ratio/fetch: merge the preset prices into the saved price options, models the admin priced untouched (admin: they write the price options, as PUT /api/option/ lets admins)
import { route } from "@/lib/http/route";
import { fetchPresets } from "@/lib/price-presets/fetch-presets";

export const POST = route({ access: "admin", gate: "POST /api/option/preset_ratio/fetch", demoBlocked: true }, async ({ ctx }) => fetchPresets({ ctx }));
