// Redemption codes: statuses, new codes and the admin's view of a code. A code is a bearer
// secret worth money, so the database keeps only its keyed hash (lib/auth/lookup-hash.ts) and
// a hint of 4 + 4 characters; the admin sees the codes in full once, in the answer of the
// create call (docs/redemptions.md).
import "server-only";
import type { Redemption } from "@/generated/sqlite/client";
import { isAdmin } from "@/lib/auth/roles";
import { lookupHash, randomAlnum } from "@/lib/auth/lookup-hash";
import type { UserCtx } from "@/lib/ctx";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

export const CODE_LENGTH = 32; // [A-Za-z0-9]: about 190 bits

export function newCode(): string {
  return randomAlnum(CODE_LENGTH);
}

export function codeHash(code: string): string {
  return lookupHash(code);
}

export function codeHint(code: string): string {
  return `${code.slice(0, 4)}…${code.slice(-4)}`;
}

export type RedemptionView = Omit<Redemption, "key" | "deleted_at" | "user_id">;

export function redemptionView(r: Redemption): RedemptionView {
  const { key: _k, deleted_at: _d, user_id: _u, ...rest } = r;
  return rest;
}

// Rows not deleted (deletion keeps the row, so that the ledger's references stay readable).
export const live = { deleted_at: null } as const;

// route() lets only admins in; the verbs say so again.
export function assertAdmin(ctx: UserCtx): void {
  if (!isAdmin(ctx.user.role)) throw new AppError("FORBIDDEN", "permission_denied");
}

export async function liveRedemption(id: number): Promise<Redemption> {
  const r = await db().redemption.findFirst({ where: { id, ...live } });
  if (!r) throw new AppError("NOT_FOUND", "not_found");
  return r;
}

export function pageOf(rows: Redemption[], total: number, page: number, size: number) {
  return { items: rows.map(redemptionView), total, page, page_size: size };
}

// The name of count-by-name and delete-by-name: trimmed, not blank.
export function batchName(name: string | undefined): string {
  const n = name?.trim() ?? "";
  if (!n) throw new AppError("INVALID_INPUT", "redemption_name_blank");
  return n;
}
