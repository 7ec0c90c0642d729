// POST /api/channel/multi_key/manage: enable, disable or delete one key of a multi-key
// channel (by index), enable them all, or delete the disabled ones; answers the channel
// without its keys (docs/channels-tokens-billing.md, "Multi-key channels").
import { route } from "@/lib/http/route";
import { manageKeysBody } from "@/lib/channels/multi-key-rules";
import { manageKeys } from "@/lib/channels/multi-key";

export const POST = route({ access: "admin", gate: "POST /api/channel/multi_key/manage", body: manageKeysBody }, async ({ ctx, body }) =>
  manageKeys({ ctx, input: body }),
);
