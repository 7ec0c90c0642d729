// POST /api/admin/messages (admin): one message to the given users. The recipients are
// written by one INSERT ... SELECT inside one transaction, which also proves every id is a
// live user, so that a message to 10,000 users is one request of well under two seconds
// (docs/messages.md).
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { db, type Tx } from "@/lib/db/client";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { messageContentRefusal, messageRecipientsRefusal, messageTitleRefusal } from "@/lib/messages/field-rules";
import type { CreateMessageInput } from "@/lib/messages/schemas";
import { adminView, assertAdmin } from "@/lib/messages/shared";
import { TX_OPTIONS } from "@/lib/users/db-errors";
import { nowSeconds } from "@/lib/time";

// The ids that are not live users, for the refusal (at most five named).
async function unknownIds(tx: Tx, ids: number[]): Promise<string> {
  const known = new Set<number>();
  for (const part of chunks(ids)) {
    const rows = await tx.user.findMany({ where: { id: { in: part }, deleted_at: null }, select: { id: true } });
    for (const r of rows) known.add(r.id);
  }
  const unknown = ids.filter((id) => !known.has(id));
  return unknown.slice(0, 5).join(", ") + (unknown.length > 5 ? ", …" : "");
}

// Ids per lookup: 5,000 bound values stay far below both databases' limits (SQLite 32,766;
// PostgreSQL 65,535).
const CHUNK = 5_000;

function chunks<T>(list: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

export async function createMessage({ ctx, input }: { ctx: UserCtx; input: CreateMessageInput }) {
  assertAdmin(ctx);
  const title = input.title.trim();
  const content = input.content.trim();
  const ids = [...new Set(input.user_ids)];
  const refusal = messageTitleRefusal(title) ?? messageContentRefusal(content) ?? messageRecipientsRefusal(ids);
  if (refusal) throw new AppError("INVALID_INPUT", refusal);

  const now = BigInt(nowSeconds());
  const json = JSON.stringify(ids);
  const sqlite = env().databaseKind !== "postgresql";
  const message = await db().$transaction(async (tx) => {
    const m = await tx.message.create({
      data: { title, content, format: input.format ?? "markdown", created_by: ctx.user.id, created_at: now, updated_at: now },
    });
    // One statement: the ids travel as one JSON parameter and only users that exist (and are
    // not deleted) get a row, so the count written says whether every id was a user.
    const written = sqlite
      ? await tx.$executeRaw`INSERT INTO "message_recipients" ("message_id", "user_id") SELECT ${m.id}, "id" FROM "users" WHERE "deleted_at" IS NULL AND "id" IN (SELECT "value" FROM json_each(${json}))`
      : await tx.$executeRaw`INSERT INTO "message_recipients" ("message_id", "user_id") SELECT ${m.id}, "id" FROM "users" WHERE "deleted_at" IS NULL AND "id" IN (SELECT ("value")::int FROM json_array_elements_text(${json}::json))`;
    if (written !== ids.length) throw new AppError("INVALID_INPUT", "message_recipients_unknown", { ids: await unknownIds(tx, ids) });
    return m;
  }, TX_OPTIONS);
  return adminView(message, ids.length, 0);
}
