// GET /api/channel/fetch_models/{id}: list the models the stored channel's upstream offers
import { route } from "@/lib/http/route";
import { idParams } from "@/lib/http/params";
import { fetchModelsOfChannel } from "@/lib/channel-admin/upstream";

export const GET = route({ access: "admin", gate: "GET /api/channel/fetch_models/{id}", params: idParams }, async ({ ctx, params }) =>
  fetchModelsOfChannel({ ctx, input: params.id }),
);
