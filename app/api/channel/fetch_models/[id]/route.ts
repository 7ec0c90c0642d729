// GET /api/channel/fetch_models/{id}: list the models the stored channel's upstream offers
import { z } from "zod";
import { route } from "@/lib/http/route";
import { AppError } from "@/lib/errors";
import { fetchModelsOfChannel } from "@/lib/channels/upstream";

export const GET = route({ access: "admin" }, async ({ params }) => {
  const id = z.coerce.number().int().positive().safeParse(params.id);
  if (!id.success) throw new AppError("INVALID_INPUT", "invalid_parameter");
  return fetchModelsOfChannel(id.data);
});
