// A log row's content in the reader's language: the message the server named in
// `other.message` (lib/logs/messages.ts), its quota amounts by the display rule; a row
// without one (a relay call's, an older row's) shows its stored content.
import { renderQuota, type QuotaDisplay } from "@/lib/client/format";
import { parseOther } from "@/lib/client/logs";
import { LOG_MESSAGE_QUOTAS, logMessageOf } from "@/lib/logs/messages";
import type { Log } from "./types";

type T = (key: string, values?: Record<string, string | number>) => string;

/** t: the "logs" messages. */
export function logContentText(log: Pick<Log, "content" | "other">, t: T, display: QuotaDisplay): string {
  const m = logMessageOf(parseOther(log.other));
  if (!m) return log.content;
  const quotas: readonly string[] = LOG_MESSAGE_QUOTAS[m.key];
  const values = Object.fromEntries(Object.entries(m.params).map(([k, v]) => [k, quotas.includes(k) ? renderQuota(Number(v), display) : v]));
  return t(`messages.${m.key}`, values);
}
