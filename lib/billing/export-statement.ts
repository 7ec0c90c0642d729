// GET /api/user/ledger/self/export and GET /api/user/{id}/ledger/export: the filtered statement
// as CSV (docs/statement.md), streamed newest first in keyset chunks (id < last id, on the
// index (user_id, id)), at most STATEMENT_EXPORT_MAX_ROWS rows.
import "server-only";
import type { Locale } from "@/lib/i18n/locale";
import { db } from "@/lib/db/client";
import type { UserCtx } from "@/lib/ctx";
import { csvLine, csvText, isoUtc, keysetCsvResponse } from "@/lib/billing/csv";
import { unitsToUsd } from "@/lib/billing/ledger-kinds";
import { statementOwner, statementWhere, tokenNames, type StatementFilters } from "@/lib/billing/statement-query";

export const STATEMENT_EXPORT_MAX_ROWS = 100_000;

const HEADER = [
  "id",
  "time_utc",
  "created_at",
  "kind",
  "kind_label",
  "delta",
  "delta_usd",
  "balance_after",
  "balance_after_usd",
  "ref",
  "token_id",
  "token_name",
];

// The ledger kinds' names in the reader's language (the console's own catalogue).
async function kindLabels(locale: Locale): Promise<Record<string, string>> {
  return (await import(`@/messages/${locale}.json`)).default.statement.kinds;
}

export async function exportStatement({ ctx, input }: { ctx: UserCtx; input: { filters: StatementFilters; userId?: number } }): Promise<Response> {
  const userId = await statementOwner(ctx, input.userId);
  const where = statementWhere(userId, input.filters);
  // A bounded count (at most cap + 1 rows are counted) tells, before the first byte, whether
  // the file will be cut at the cap.
  const truncated = (await db().quotaLedger.count({ where, take: STATEMENT_EXPORT_MAX_ROWS + 1 })) > STATEMENT_EXPORT_MAX_ROWS;
  const labels = await kindLabels(ctx.locale);
  const day = new Date().toISOString().slice(0, 10);
  return keysetCsvResponse({
    header: HEADER,
    max: STATEMENT_EXPORT_MAX_ROWS,
    capped: truncated,
    capHeader: "x-statement-rows-capped",
    filename: `statement-${userId}-${day}.csv`,
    read: (beforeId, take) =>
      db().quotaLedger.findMany({ where: beforeId === null ? where : { AND: [where, { id: { lt: beforeId } }] }, orderBy: { id: "desc" }, take }),
    lines: async (rows) => {
      const names = await tokenNames(rows.map((r) => r.token_id));
      let text = "";
      for (const r of rows) {
        text += csvLine([
          String(r.id),
          isoUtc(r.created_at),
          String(r.created_at),
          csvText(r.kind),
          csvText(Object.hasOwn(labels, r.kind) ? labels[r.kind] : r.kind),
          String(r.delta),
          unitsToUsd(r.delta),
          String(r.balance_after),
          unitsToUsd(r.balance_after),
          csvText(r.ref),
          String(r.token_id),
          csvText(names.get(r.token_id) ?? ""),
        ]);
      }
      return text;
    },
  });
}
