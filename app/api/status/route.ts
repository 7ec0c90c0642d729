// GET /api/status: the public site status record (spec 1 section 3)
import { route } from "@/lib/http/route";
import { siteStatus } from "@/lib/status/site-status";

export const GET = route({ access: "public" }, async () => siteStatus());
