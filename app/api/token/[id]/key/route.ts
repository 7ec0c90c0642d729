// POST /api/token/{id}/key: the full key of one of the caller's tokens, for copying
import { route } from "@/lib/http/route";
import { idParams } from "@/lib/http/params";
import { revealTokenKey } from "@/lib/tokens/reveal-token-key";

export const POST = route({ access: "user", params: idParams }, async ({ ctx, params }) => revealTokenKey({ ctx, input: params.id }));
