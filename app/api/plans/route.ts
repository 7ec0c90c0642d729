// GET /api/plans: the subscription plans for sale (signed in)
import { route } from "@/lib/http/route";
import { listPlansForSale } from "@/lib/plans/admin-plans";

export const GET = route({ access: "user" }, async ({ ctx }) => listPlansForSale({ ctx }));
