// POST /api/token/: `count` tokens (1..100) for the actor; the extra ones get the name plus
// "-" and 6 random letters or digits.
import "server-only";
import type { Prisma, Token } from "@/generated/sqlite/client";
import { randomAlnum } from "@/lib/auth/lookup-hash";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { batchCountRefusal, tokenNameRefusal } from "@/lib/tokens/field-rules";
import { checkTokenFields, tokenColumns } from "@/lib/tokens/fields";
import type { TokenActor } from "@/lib/tokens/owned";
import type { UserCtx } from "@/lib/ctx";
import type { TokenFields } from "@/lib/tokens/schemas";
import { newKey, tokenView } from "@/lib/tokens/shared";
import { nowSeconds } from "@/lib/time";
import { TOKEN_STATUS } from "@/lib/statuses";
import { recordAudit } from "@/lib/audit/record";

export async function createTokens({ ctx, input }: { ctx: UserCtx; input: TokenFields & { count?: number } }) {
  const actor: TokenActor = ctx.user;
  const now = nowSeconds();
  const name = input.name?.trim() ?? "";
  const nameRefusal = tokenNameRefusal(name);
  if (nameRefusal) throw new AppError("INVALID_INPUT", nameRefusal);
  const count = input.count ?? 1;
  const countRefusal = batchCountRefusal(count);
  if (countRefusal) throw new AppError("INVALID_INPUT", countRefusal);
  checkTokenFields(actor, input, now);
  const fields = tokenColumns(input);
  const created = await db().$transaction(async (tx) => {
    const out: Token[] = [];
    for (let i = 0; i < count; i++) {
      const k = newKey();
      out.push(
        await tx.token.create({
          data: {
            ...(fields as Prisma.TokenUncheckedCreateInput),
            user_id: actor.id,
            name: i === 0 ? name : `${name}-${randomAlnum(6)}`,
            key_hash: k.key_hash,
            key_cipher: k.key_cipher,
            status: TOKEN_STATUS.enabled,
            created_time: BigInt(now),
            accessed_time: BigInt(now),
          },
        }),
      );
    }
    return out;
  });
  // one row per token: its id and name, never its key (docs/audit.md)
  for (const t of created) await recordAudit(ctx, { action: "token_create", target: { type: "token", id: t.id }, detail: { name: t.name } });
  // The creator sees the new keys in full once, in this answer.
  return created.map((t) => tokenView(t, true));
}
