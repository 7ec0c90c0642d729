// A new system access token for the caller: 32 random characters, shown once; only its
// keyed lookup hash is stored, and it replaces any previous token.
import "server-only";
import { lookupHash, randomAlnum } from "@/lib/auth/lookup-hash";
import { db } from "@/lib/db/client";
import type { UserCtx } from "@/lib/http/route";
import { requireFreshFactor } from "@/lib/twofa/fresh";
import { recordAudit } from "@/lib/audit/record";

export async function generateAccessToken({ ctx }: { ctx: UserCtx }): Promise<string> {
  // A fresh second factor when the user has one (docs/two-factor.md, "Sensitive actions").
  await requireFreshFactor(ctx);
  const token = randomAlnum(32);
  await db().user.update({ where: { id: ctx.user.id }, data: { access_token_hash: lookupHash(token) } });
  await recordAudit(ctx, { action: "access_token_generate", target: { type: "user", id: ctx.user.id } });
  return token;
}
