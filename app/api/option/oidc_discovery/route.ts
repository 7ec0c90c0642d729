// POST /api/option/oidc_discovery: fetch an OIDC Well-Known document and answer its three endpoints (root; docs/settings.md)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { discoverOidc } from "@/lib/settings/discover-oidc";

const body = z.object({ well_known: z.string({ error: "msg:invalid_parameter" }).max(2000) });

export const POST = route({ access: "root", body, rateLimit: "critical" }, async ({ ctx, body }) => discoverOidc({ ctx, input: body }));
