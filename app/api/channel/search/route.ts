// GET /api/channel/search: channels by keyword, group, model, types, statuses, tags
import { route } from "@/lib/http/route";
import { listChannels } from "@/lib/channels/list";
import { channelListQuery, filterOf } from "@/lib/channels/query";

export const GET = route({ access: "admin", gate: "GET /api/channel/search", query: channelListQuery }, async ({ ctx, query }) =>
  listChannels({ ctx, input: { page: query.p, pageSize: query.page_size, idSort: query.id_sort, tagMode: query.tag_mode, filter: filterOf(query) } }),
);
