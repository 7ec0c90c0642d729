// GET /api/oauth/{github|oidc|linuxdo|idcflare}?code=&state=: finishes a sign-in or a bind (message "bind")
import { z } from "zod";
import { route } from "@/lib/http/route";
import { oauthCallback } from "@/lib/oauth/oauth-callback";
import { REDIRECT_PROVIDERS } from "@/lib/oauth/providers";
import { signInReply } from "@/lib/oauth/reply";

const params = z.object({ type: z.enum(REDIRECT_PROVIDERS) });
const query = z.object({ code: z.string().min(1).max(2048), state: z.string().min(1).max(128) });

export const GET = route({ access: "public", params, query, rateLimit: "critical" }, async ({ ctx, params, query }) =>
  signInReply(ctx, await oauthCallback({ ctx, input: { provider: params.type, code: query.code, state: query.state } })),
);
