// GET /api/token/search: keyword matches the name; token matches any part of the key (with
// or without "sk-"). Keys are stored sealed, so the second filter decrypts the owner's own
// tokens in memory.
import "server-only";
import { db } from "@/lib/db/client";
import { liveTokensOf, type TokenActor } from "@/lib/tokens/owned";
import { fullKey, tokenView } from "@/lib/tokens/shared";
import { containsText } from "@/lib/db/like";

export async function searchTokens({
  ctx: { user: actor },
  input,
}: {
  ctx: { user: TokenActor };
  input: { keyword?: string; token?: string; page: number; size: number };
}) {
  const keyword = input.keyword?.trim() ?? "";
  const fragment = (input.token ?? "").trim().replace(/^sk-/, "");
  const rows = await db().token.findMany({
    where: { ...liveTokensOf(actor.id), ...(keyword ? { name: containsText(keyword) } : {}) },
    orderBy: { id: "desc" },
  });
  const hits = fragment ? rows.filter((t) => fullKey(t).includes(fragment)) : rows;
  const start = (input.page - 1) * input.size;
  return { items: hits.slice(start, start + input.size).map((t) => tokenView(t)), total: hits.length, page: input.page, page_size: input.size };
}
