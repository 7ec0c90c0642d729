// GET /api/oauth/{github|oidc|linuxdo|idcflare}/authorize?aff=: redirects the browser to the provider's consent page (docs/oauth.md)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { authorizeUrl } from "@/lib/oauth/authorize-url";
import { REDIRECT_PROVIDERS } from "@/lib/oauth/providers";

const params = z.object({ type: z.enum(REDIRECT_PROVIDERS) });
const query = z.object({ aff: z.string().max(32).optional() });

export const GET = route({ access: "public", params, query, rateLimit: "critical" }, async ({ ctx, params, query }) => {
  const { url, cookie } = await authorizeUrl({ ctx, input: { provider: params.type, aff: query.aff ?? "" } });
  const headers = new Headers({ location: url, "cache-control": "no-store" });
  headers.append("set-cookie", cookie);
  return new Response(null, { status: 302, headers });
});
