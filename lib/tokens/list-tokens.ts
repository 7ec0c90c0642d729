// GET /api/token/: the actor's tokens, newest first, keys masked.
import "server-only";
import { db } from "@/lib/db/client";
import { liveTokensOf, type TokenActor } from "@/lib/tokens/owned";
import { tokenView } from "@/lib/tokens/shared";

export async function listTokens({ ctx: { user: actor }, input: { page, size } }: { ctx: { user: TokenActor }; input: { page: number; size: number } }) {
  const where = liveTokensOf(actor.id);
  const [rows, total] = await Promise.all([
    db().token.findMany({ where, orderBy: { id: "desc" }, skip: (page - 1) * size, take: size }),
    db().token.count({ where }),
  ]);
  return { items: rows.map((t) => tokenView(t)), total, page, page_size: size };
}
