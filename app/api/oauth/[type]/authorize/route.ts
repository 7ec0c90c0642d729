// GET /api/oauth/{github|oidc|linuxdo|idcflare}/authorize?aff=: redirects the browser to the provider's consent page (docs/oauth.md)
import { z } from "zod";
import { isAppError } from "@/lib/errors";
import type { MessageKey } from "@/lib/i18n/server-messages";
import { route } from "@/lib/http/route";
import { authorizeUrl } from "@/lib/oauth/authorize-url";
import type { OAuthFailure } from "@/lib/oauth/failure";
import { REDIRECT_PROVIDERS } from "@/lib/oauth/providers";

const params = z.object({ type: z.enum(REDIRECT_PROVIDERS) });
const query = z.object({ aff: z.string().max(32).optional() });

// A refusal is a page for the browser that followed the button, not a JSON answer: the
// callback page shows it (a visitor on the login page) by its code.
const FAILURE: Partial<Record<MessageKey, OAuthFailure>> = {
  oauth_needs_server_address: "no_server_address",
  oauth_provider_disabled: "disabled",
  oidc_config_failed: "provider_config",
};

export const GET = route({ access: "public", params, query, rateLimit: "critical" }, async ({ ctx, params, query }) => {
  try {
    const { url, cookie } = await authorizeUrl({ ctx, input: { provider: params.type, aff: query.aff ?? "" } });
    const headers = new Headers({ location: url, "cache-control": "no-store" });
    headers.append("set-cookie", cookie);
    return new Response(null, { status: 302, headers });
  } catch (err) {
    const failure = isAppError(err) ? FAILURE[err.key] : undefined;
    if (!failure) throw err;
    return new Response(null, { status: 302, headers: { location: `/oauth/${params.type}?oauth_error=${failure}`, "cache-control": "no-store" } });
  }
});
