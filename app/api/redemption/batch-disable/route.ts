// PUT /api/redemption/batch-disable: disable the given unused codes; answers the count (admin)
import { route } from "@/lib/http/route";
import { batchDisable } from "@/lib/redemptions/batch-disable";
import { batchIdsBody } from "@/lib/redemptions/schemas";

export const PUT = route({ access: "admin", gate: "PUT /api/redemption/batch-disable", body: batchIdsBody }, async ({ ctx, body }) =>
  batchDisable({ ctx, input: body.ids }),
);
