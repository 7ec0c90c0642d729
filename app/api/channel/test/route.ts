// GET /api/channel/test: test every enabled (and system-disabled) channel; data {tested, passed, failed}
import { route } from "@/lib/http/route";
import { testAllChannels } from "@/lib/relay/test-channel";

export const GET = route({ access: "admin" }, async ({ ctx }) => testAllChannels({ ctx }));
