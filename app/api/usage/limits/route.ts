// GET /api/usage/limits: the caller's own usage limits, each with max, used, left and reset_at
// A session (or a system access token) sees the user's limits; Authorization: Bearer sk-... (a relay token) sees the token's and its user's.
// Entries: {scope: token|user|plan, limit: rpm|tpm|concurrency|quota_5h|quota_day|quota_week|quota_month|plan, max, used, left, reset_at (unix seconds or null)}.
import { route } from "@/lib/http/route";
import { authenticate } from "@/lib/http/auth";
import { limitArray } from "@/lib/limits/engine";
import { listUsageLimits } from "@/lib/limits/usage";
import { relayTokenUsageLimits, tokensUsageLimits, tokenUsageLimits } from "@/lib/tokens/token-usage-limits";
import { userUsageLimits } from "@/lib/users/user-usage-limits";
import { usageLimitsQuery } from "@/lib/users/field-rules";

// "public" to route(): the caller is either a relay token (sk-...) or a console user, decided here
// A session may name one of its own tokens (?token_id=) or up to 100 (?token_ids=1,2,3), or, an admin, a user (?user_id=): the
// console's meters (docs/console-ui.md, "Limits").
export const GET = route({ access: "public", query: usageLimitsQuery }, async ({ ctx, query }) => {
  const auth = ctx.headers.get("authorization")?.trim() ?? "";
  if (/^(Bearer\s+)?sk-/i.test(auth)) return relayTokenUsageLimits({ ctx, input: { authorization: auth } });
  const user = await authenticate(ctx.headers);
  if (query.token_ids !== undefined) return tokensUsageLimits({ ctx: { ...ctx, user }, input: { tokenIds: query.token_ids } });
  if (query.token_id !== undefined) return tokenUsageLimits({ ctx: { ...ctx, user }, input: { tokenId: query.token_id } });
  if (query.user_id !== undefined) return userUsageLimits({ ctx: { ...ctx, user }, input: { userId: query.user_id } });
  const caller = { userId: user.id, group: user.group, userLimits: limitArray(user), token: null };
  return listUsageLimits({ ctx, input: { caller } });
});
