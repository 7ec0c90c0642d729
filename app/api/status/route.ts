// GET /api/status: the public site status record (docs/product-rules.md)
import { route } from "@/lib/http/route";
import { siteStatus } from "@/lib/status/site-status";

export const GET = route({ access: "public" }, async () => siteStatus());
