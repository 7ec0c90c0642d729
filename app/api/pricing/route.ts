// GET /api/pricing: model prices, group ratios and the viewer's usable groups (public)
import { Reply, route } from "@/lib/http/route";
import { optionalSessionUser } from "@/lib/http/auth";
import { pricingTable } from "@/lib/pricing/pricing-page";

export const GET = route({ access: "public" }, async ({ ctx }) => {
  const user = await optionalSessionUser(ctx.headers);
  const t = await pricingTable({ ctx, input: user?.group ?? null });
  return new Reply({ raw: { success: true, message: "", ...t } });
});
