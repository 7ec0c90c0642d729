// GET /api/channel/: the channel list (p, page_size, id_sort, tag_mode and search filters)
// POST /api/channel/: create one channel, or one per key line with mode "batch"
// PUT /api/channel/: update any fields of a channel (id required)
import { CHANNEL_MAX_BODY_BYTES } from "@/lib/http/body-limit";
import { route } from "@/lib/http/route";
import { listChannels } from "@/lib/channels/list";
import { channelListQuery, filterOf } from "@/lib/channels/query";
import { createBody, updateBody } from "@/lib/channels/schemas";
import { createChannels } from "@/lib/channel-admin/create-channels";
import { updateChannel } from "@/lib/channel-admin/update-channel";

export const GET = route({ access: "admin", gate: "GET /api/channel", query: channelListQuery }, async ({ ctx, query }) =>
  listChannels({ ctx, input: { page: query.p, pageSize: query.page_size, idSort: query.id_sort, tagMode: query.tag_mode, filter: filterOf(query) } }),
);

export const POST = route({ access: "admin", gate: "POST /api/channel", body: createBody, maxBodyBytes: CHANNEL_MAX_BODY_BYTES }, async ({ ctx, body }) => {
  const created = await createChannels({ ctx, input: body });
  return created.length === 1 && body.mode !== "batch" ? created[0] : created;
});

export const PUT = route({ access: "admin", gate: "PUT /api/channel", body: updateBody }, async ({ ctx, body }) => updateChannel({ ctx, input: body }));
