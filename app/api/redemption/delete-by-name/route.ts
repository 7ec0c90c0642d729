// DELETE /api/redemption/delete-by-name?name: delete the codes that carry exactly this name; answers the count (admin)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { deleteByName } from "@/lib/redemptions/delete-by-name";

export const DELETE = route(
  { access: "admin", gate: "DELETE /api/redemption/delete-by-name", query: z.object({ name: z.string().max(200).optional() }) },
  async ({ ctx, query }) => deleteByName({ ctx, input: query }),
);
