// GET /api/token/{id}: one of the actor's tokens, key masked.
import { ownToken, type TokenActor } from "@/lib/tokens/owned";
import { tokenView } from "@/lib/tokens/shared";

export async function getToken(actor: TokenActor, id: number) {
  return tokenView(await ownToken(actor, id));
}
