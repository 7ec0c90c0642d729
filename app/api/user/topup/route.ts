// POST /api/user/topup?turnstile: redeem a code ({key}); answers {quota, is_gift} (docs/redemptions.md)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { redeem } from "@/lib/redemptions/redeem";
import { redeemBody } from "@/lib/redemptions/schemas";

// `turnstile` carries the human-check token; the check itself belongs to the human-check
// work (docs/redemptions.md, "Human check").
export const POST = route(
  { access: "user", rateLimit: "critical", body: redeemBody, query: z.object({ turnstile: z.string().max(4096).optional() }) },
  async ({ ctx, body }) => redeem({ ctx, input: body }),
);
