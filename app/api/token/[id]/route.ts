// GET /api/token/{id}: one of the caller's tokens (key masked)
// DELETE /api/token/{id}: delete one of the caller's tokens
import { route } from "@/lib/http/route";
import { idParams } from "@/lib/http/params";
import { deleteToken } from "@/lib/tokens/delete-token";
import { getToken } from "@/lib/tokens/get-token";

export const GET = route({ access: "user", params: idParams }, async ({ ctx, params }) => getToken({ ctx, input: params.id }));
export const DELETE = route({ access: "user", params: idParams }, async ({ ctx, params }) => {
  await deleteToken({ ctx, input: params.id });
  return null;
});
