// POST /api/token/{id}/key: the full key, for the owner's copy button.
import "server-only";
import { ownToken, type TokenActor } from "@/lib/tokens/owned";
import { fullKey } from "@/lib/tokens/shared";

export async function revealTokenKey({ ctx: { user: actor }, input: id }: { ctx: { user: TokenActor }; input: number }) {
  return { key: fullKey(await ownToken(actor, id)) };
}
