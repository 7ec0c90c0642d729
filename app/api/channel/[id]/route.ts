// GET /api/channel/{id}: one channel (without its key)
// DELETE /api/channel/{id}: delete a channel and its abilities
import { z } from "zod";
import { route } from "@/lib/http/route";
import { AppError } from "@/lib/errors";
import { getChannel } from "@/lib/channels/list";
import { deleteChannel } from "@/lib/channels/delete-channel";

const idOf = (params: Record<string, string>) => {
  const id = z.coerce.number().int().positive().safeParse(params.id);
  if (!id.success) throw new AppError("INVALID_INPUT", "invalid_parameter");
  return id.data;
};

export const GET = route({ access: "admin" }, async ({ params }) => getChannel(idOf(params)));
export const DELETE = route({ access: "admin" }, async ({ params }) => {
  await deleteChannel(idOf(params));
  return null;
});
