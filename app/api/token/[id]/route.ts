// GET /api/token/{id}: one of the caller's tokens (key masked)
// DELETE /api/token/{id}: delete one of the caller's tokens
import { z } from "zod";
import { route } from "@/lib/http/route";
import { AppError } from "@/lib/errors";
import { deleteToken } from "@/lib/tokens/delete-token";
import { getToken } from "@/lib/tokens/get-token";

const idOf = (params: Record<string, string>) => {
  const id = z.coerce.number().int().positive().safeParse(params.id);
  if (!id.success) throw new AppError("INVALID_INPUT", "invalid_parameter");
  return id.data;
};

export const GET = route({ access: "user" }, async ({ ctx, params }) => getToken(ctx.user, idOf(params)));
export const DELETE = route({ access: "user" }, async ({ ctx, params }) => {
  await deleteToken(ctx.user, idOf(params));
  return null;
});
