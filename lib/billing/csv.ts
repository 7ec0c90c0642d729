// CSV cells (RFC 4180): a cell holding a comma, a quote or a line break is quoted, its quotes
// doubled. A text cell starting with = + - @ (or a tab / carriage return) would be read as a
// formula by a spreadsheet: it gets a leading apostrophe. Numbers are written as they are.
import "server-only";
export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  return cells.join(",") + "\r\n";
}

// Excel reads a UTF-8 file as UTF-8 (Chinese included) only when it starts with the BOM.
export const UTF8_BOM = "\uFEFF";

/** A UTC time in seconds as the exports write it: 2026-11-28T09:30:00Z. */
export const isoUtc = (seconds: number | bigint) => new Date(Number(seconds) * 1000).toISOString().replace(".000Z", "Z");

const CSV_CHUNK = 1000;

/**
 * A CSV download of a list, newest first: the header, then rows read in keyset chunks (id
 * below the last one sent, `read`) and written by `lines`, at most `max` rows. `capped` (read
 * before the first byte) says whether the list goes past `max`; its header `capHeader` carries
 * `max` then, else 0. The statement's and the audit log's exports (docs/statement.md,
 * docs/audit.md).
 */
export function keysetCsvResponse<R extends { id: number }>(input: {
  header: readonly string[];
  max: number;
  capped: boolean;
  capHeader: string;
  filename: string;
  read: (beforeId: number | null, take: number) => Promise<R[]>;
  lines: (rows: R[]) => string | Promise<string>;
}): Response {
  const encoder = new TextEncoder();
  let lastId: number | null = null;
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(UTF8_BOM + csvLine(input.header)));
    },
    async pull(controller) {
      try {
        const take = Math.min(CSV_CHUNK, input.max - sent);
        const rows = take > 0 ? await input.read(lastId, take) : [];
        if (!rows.length) {
          controller.close();
          return;
        }
        const text = await input.lines(rows);
        lastId = rows[rows.length - 1]!.id;
        sent += rows.length;
        controller.enqueue(encoder.encode(text));
      } catch (err) {
        controller.error(err);
      }
    },
  });
  return new Response(stream, {
    status: 200,
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${input.filename}"`,
      "cache-control": "no-store",
      [input.capHeader]: input.capped ? String(input.max) : "0",
    },
  });
}
