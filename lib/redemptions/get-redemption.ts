// GET /api/redemption/{id} (admin): one code, without the code itself.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { assertAdmin, liveRedemption, redemptionView } from "@/lib/redemptions/shared";

export async function getRedemption({ ctx, input: id }: { ctx: UserCtx; input: number }) {
  assertAdmin(ctx);
  return redemptionView(await liveRedemption(id));
}
