// POST /api/option/preset_ratio/reset: remove the models still at their preset prices from the saved price options (admin: they write the price options, as PUT /api/option/ lets admins)
import { route } from "@/lib/http/route";
import { resetPresets } from "@/lib/price-presets/reset-presets";

export const POST = route({ access: "admin", gate: "POST /api/option/preset_ratio/reset", demoBlocked: true }, async ({ ctx }) => resetPresets({ ctx }));
