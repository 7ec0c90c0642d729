// GET /api/channel/types: the channel types the console offers, each as its adapter describes it (docs/providers.md)
import { route } from "@/lib/http/route";
import { channelTypeList } from "@/lib/channel-admin/type-profiles";

export const GET = route({ access: "admin", gate: "GET /api/channel/types" }, async ({ ctx }) => channelTypeList({ ctx }));
