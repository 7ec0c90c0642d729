// GET /api/oauth/state?aff=: a new sign-in state bound to this browser (docs/oauth.md)
import { z } from "zod";
import { Reply, route } from "@/lib/http/route";
import { issueState } from "@/lib/oauth/issue-state";

const query = z.object({ aff: z.string().max(32).optional() });

export const GET = route({ access: "public", query, rateLimit: "critical" }, async ({ ctx, query }) => {
  const { state, cookie } = await issueState({ ctx, input: { aff: query.aff ?? "" } });
  return new Reply({ data: state, headers: { "set-cookie": cookie } });
});
