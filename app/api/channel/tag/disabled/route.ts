// POST /api/channel/tag/disabled: set status 2 on every channel of a tag
import { z } from "zod";
import { route } from "@/lib/http/route";
import { setTagStatus } from "@/lib/channels/set-tag-status";
import { CHANNEL_STATUS } from "@/lib/statuses";

export const POST = route({ access: "admin", gate: "POST /api/channel/tag/disabled", body: z.object({ tag: z.string().max(200) }) }, async ({ ctx, body }) =>
  setTagStatus({ ctx, input: { tag: body.tag, status: CHANNEL_STATUS.disabled } }),
);
