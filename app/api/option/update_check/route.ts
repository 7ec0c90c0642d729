// POST /api/option/update_check: read the release source of UpdateCheckUrl and compare its tag with the running version (admin; docs/settings.md)
import { route } from "@/lib/http/route";
import { checkUpdate } from "@/lib/settings/check-update";

export const POST = route({ access: "admin", gate: "POST /api/option/update_check", rateLimit: "critical" }, async ({ ctx }) => checkUpdate({ ctx }));
