// GET /api/user/models: model names the caller can use (enabled channels in the caller's usable groups)
import { route } from "@/lib/http/route";
import { usableGroups } from "@/lib/billing/groups";
import { enabledModels } from "@/lib/channels/channel-cache";

export const GET = route({ access: "user" }, async ({ ctx }) => enabledModels(Object.keys(usableGroups(ctx.user.group))));
