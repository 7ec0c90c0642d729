// GET /api/channel/models_enabled: model names served by at least one enabled channel
import { route } from "@/lib/http/route";
import { enabledModels } from "@/lib/channels/channel-cache";

export const GET = route({ access: "admin", gate: "GET /api/channel/models_enabled" }, async () => enabledModels());
