// GET /api/channel/models: every model named on any channel, OpenAI-style {id, object, owned_by}
import { route } from "@/lib/http/route";
import { allChannelModels } from "@/lib/channels/list";

export const GET = route({ access: "admin", gate: "GET /api/channel/models" }, async ({ ctx }) => allChannelModels({ ctx }));
