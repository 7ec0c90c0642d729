// POST /api/user/plan/{id}/cancel: the caller stops the Stripe renewal of a subscription
import { idParams } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { cancelRenewal } from "@/lib/plans/subscriptions";

export const POST = route({ access: "user", params: idParams }, async ({ ctx, params }) => cancelRenewal({ ctx, input: params }));
