// POST /api/user/2fa/verify {code}: a fresh second factor for the sensitive actions of the next minutes
import { Reply, route } from "@/lib/http/route";
import { codeBody } from "@/lib/twofa/schemas";
import { verifyFreshFactor } from "@/lib/twofa/verify-fresh";

export const POST = route({ access: "user", body: codeBody }, async ({ ctx, body }) => {
  const { cookie } = await verifyFreshFactor({ ctx, input: body });
  return new Reply({ headers: { "set-cookie": cookie } });
});
