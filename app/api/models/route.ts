// GET /api/models: channel type -> models configured on channels of that type (admin)
import { route } from "@/lib/http/route";
import { modelsByType } from "@/lib/channels/channel-cache";

export const GET = route({ access: "admin", gate: "GET /api/models" }, async () => modelsByType());
