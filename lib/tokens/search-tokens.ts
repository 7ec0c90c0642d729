// GET /api/token/search: keyword matches the name; token matches any part of the key (with
// or without "sk-"). Keys are stored sealed, so the second filter matches the owner's own
// tokens' keys as opened once per process (lib/tokens/opened-keys.ts), over the three columns
// it needs; only the page's tokens are then read whole.
import "server-only";
import { db } from "@/lib/db/client";
import { liveTokensOf, type TokenActor } from "@/lib/tokens/owned";
import { openedKey } from "@/lib/tokens/opened-keys";
import { tokenView } from "@/lib/tokens/shared";
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
    select: { id: true, key_hash: true, key_cipher: true },
  });
  const hits = fragment ? rows.filter((t) => openedKey(t).includes(fragment)) : rows;
  const start = (input.page - 1) * input.size;
  const ids = hits.slice(start, start + input.size).map((t) => t.id);
  // (a token deleted between the two reads is left out)
  const page = await db().token.findMany({ where: { id: { in: ids }, ...liveTokensOf(actor.id) }, orderBy: { id: "desc" } });
  return { items: page.map((t) => tokenView(t)), total: hits.length, page: input.page, page_size: input.size };
}
