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
