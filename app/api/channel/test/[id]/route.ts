// GET /api/channel/test/{id}?model=: test one channel; answers {success, message, time}
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { idParams } from "@/lib/http/params";
import { Reply, route } from "@/lib/http/route";
import { testChannel } from "@/lib/relay/test-channel";

const query = z.object({ model: z.string().max(200).optional() });

export const GET = route({ access: "admin", gate: "GET /api/channel/test/{id}", params: idParams, query }, async ({ ctx, params, query }) => {
  const result = await testChannel({ ctx, input: { id: params.id, model: query.model } });
  if (!result) throw new AppError("NOT_FOUND", "channel_not_found");
  return new Reply({ raw: result });
});
