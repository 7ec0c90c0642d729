// GET /api/user/passkey: the caller's passkeys (names and dates; never the key material).
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";

export type PasskeyRow = { id: number; name: string; created_at: number; last_used_at: number };

export async function listPasskeys({ ctx }: { ctx: UserCtx }): Promise<PasskeyRow[]> {
  const rows = await db().passkey.findMany({ where: { user_id: ctx.user.id }, orderBy: { id: "asc" } });
  return rows.map((r) => ({ id: r.id, name: r.name, created_at: Number(r.created_at), last_used_at: Number(r.last_used_at) }));
}
