// GET /api/user/models: model names the caller can use (enabled channels in the caller's usable groups, and the virtual models they reach)
import { route } from "@/lib/http/route";
import { usableGroups } from "@/lib/billing/groups";
import { enabledModels } from "@/lib/channels/channel-cache";
import { withVirtualModels } from "@/lib/relay/virtual-models";

export const GET = route({ access: "user" }, async ({ ctx }) => withVirtualModels(await enabledModels(Object.keys(usableGroups(ctx.user.group)))));
