// GET /api/channel/{id}: one channel (without its key)
// DELETE /api/channel/{id}: delete a channel and its abilities
import { route } from "@/lib/http/route";
import { idParams } from "@/lib/http/params";
import { getChannel } from "@/lib/channels/list";
import { deleteChannel } from "@/lib/channels/delete-channel";

export const GET = route({ access: "admin", gate: "GET /api/channel/{id}", params: idParams }, async ({ ctx, params }) =>
  getChannel({ ctx, input: params.id }),
);
export const DELETE = route({ access: "admin", gate: "DELETE /api/channel/{id}", params: idParams }, async ({ ctx, params }) => {
  await deleteChannel({ ctx, input: params.id });
  return null;
});
