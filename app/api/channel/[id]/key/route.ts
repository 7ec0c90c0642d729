// POST /api/channel/{id}/key: the channel's stored key, for copying (root, or an admin with channels:reveal; audited)
import { idParams } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { revealChannelKey } from "@/lib/channels/reveal-channel-key";

export const POST = route({ access: "admin", gate: "POST /api/channel/{id}/key", params: idParams, rateLimit: "critical" }, async ({ ctx, params }) =>
  revealChannelKey({ ctx, input: params.id }),
);
