// GET /api/channel/test/{id}?model=: test one channel; answers {success, message, time}
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { Reply, route } from "@/lib/http/route";
import { testChannel } from "@/lib/relay/test-channel";

const query = z.object({ model: z.string().max(200).optional() });

export const GET = route({ access: "admin", query }, async ({ params, query }) => {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw new AppError("INVALID_INPUT", "invalid_parameter");
  const result = await testChannel(id, query.model);
  if (!result) throw new AppError("NOT_FOUND", "channel_not_found");
  return new Reply({ raw: result });
});
