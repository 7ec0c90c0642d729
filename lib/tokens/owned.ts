// The scope of every token verb: the acting user's own tokens that are not deleted. A user
// (admin included) never sees or changes another user's token through these calls.
import "server-only";
import type { Token, User } from "@/generated/sqlite/client";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

export type TokenActor = Pick<User, "id" | "group">;

export const liveTokensOf = (userId: number) => ({ user_id: userId, deleted_at: null });

// One of the actor's live tokens; another user's token is not found either.
export async function ownToken(actor: TokenActor, id: number): Promise<Token> {
  const t = await db().token.findFirst({ where: { id, ...liveTokensOf(actor.id) } });
  if (!t) throw new AppError("NOT_FOUND", "token_not_found");
  return t;
}
