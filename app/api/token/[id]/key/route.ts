// POST /api/token/{id}/key: the full key of one of the caller's tokens, for copying
import { z } from "zod";
import { route } from "@/lib/http/route";
import { AppError } from "@/lib/errors";
import { revealTokenKey } from "@/lib/tokens/reveal-token-key";

export const POST = route({ access: "user" }, async ({ ctx, params }) => {
  const id = z.coerce.number().int().positive().safeParse(params.id);
  if (!id.success) throw new AppError("INVALID_INPUT", "invalid_parameter");
  return revealTokenKey(ctx.user, id.data);
});
