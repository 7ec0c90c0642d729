// GET /api/user/plan: the caller's subscriptions with their meters, and the billing preference
import { route } from "@/lib/http/route";
import { ownPlans } from "@/lib/plans/subscriptions";

export const GET = route({ access: "user" }, async ({ ctx }) => ownPlans({ ctx }));
