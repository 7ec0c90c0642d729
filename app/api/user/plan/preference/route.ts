// PUT /api/user/plan/preference {billing_preference, wallet_fallback?}: which pot a call spends first
import { route } from "@/lib/http/route";
import { preferenceBody } from "@/lib/plans/schemas";
import { setPreference } from "@/lib/plans/subscriptions";

export const PUT = route({ access: "user", body: preferenceBody }, async ({ ctx, body }) => setPreference({ ctx, input: body }));
