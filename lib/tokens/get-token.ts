// GET /api/token/{id}: one of the actor's tokens, key masked.
import "server-only";
import { ownToken, type TokenActor } from "@/lib/tokens/owned";
import { tokenView } from "@/lib/tokens/shared";

export async function getToken({ ctx: { user: actor }, input: id }: { ctx: { user: TokenActor }; input: number }) {
  return tokenView(await ownToken(actor, id));
}
