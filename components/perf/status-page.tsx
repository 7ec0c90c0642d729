"use client";
// The public status page (docs/performance.md, "Status page"): every model of the default group
// with its availability (success rate) and median time to first token over the last 24 hours
// and the last 7 days, from GET /api/status/models (rendered by the server, refreshed here).
import { useLocale, useTranslations } from "next-intl";
import useSWR from "swr";
import { Badge } from "@/components/ui/badge";
import { Alert, PageTitle } from "@/components/ui/card";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { localDateTime } from "@/lib/client/format";
import { formatMs, formatRate, rateColor, STATUS_MODELS_PATH, type StatusModels, type StatusWindow } from "@/lib/client/perf";

function Window({ w, testId }: { w: StatusWindow; testId: string }) {
  const t = useTranslations("statusPage");
  return (
    <div className="flex flex-col items-start gap-1" data-testid={testId}>
      <Badge color={rateColor(w.success_rate)}>{formatRate(w.success_rate)}</Badge>
      <span className="text-xs text-zinc-500 dark:text-zinc-400">
        {t("ttft", { ttft: formatMs(w.ttft_p50_ms) })} · {t("calls", { count: w.calls })}
      </span>
    </div>
  );
}

export function StatusPage({ data: first }: { data: StatusModels }) {
  const t = useTranslations("statusPage");
  const locale = useLocale();
  const { data } = useSWR<StatusModels>(STATUS_MODELS_PATH, { fallbackData: first, refreshInterval: 60_000 });
  const d = data ?? first;
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6">
      <PageTitle>{t("title")}</PageTitle>
      <div className="mb-4">
        <Alert tone="info">{t("intro", { group: d.group })}</Alert>
      </div>
      <Table>
        <thead>
          <tr>
            <Th>{t("col.model")}</Th>
            <Th>{t("col.day")}</Th>
            <Th>{t("col.week")}</Th>
          </tr>
        </thead>
        <tbody>
          {d.models.length === 0 && <EmptyRow colSpan={3}>{t("empty")}</EmptyRow>}
          {d.models.map((m) => (
            <tr key={m.model_name} data-testid={`status-row-${m.model_name}`}>
              <Td className="font-mono text-xs">{m.model_name}</Td>
              <Td>
                <Window w={m.day} testId={`status-day-${m.model_name}`} />
              </Td>
              <Td>
                <Window w={m.week} testId={`status-week-${m.model_name}`} />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      {d.updated_at > 0 && <p className="mt-3 text-xs text-zinc-500 dark:text-zinc-400">{t("updated", { at: localDateTime(d.updated_at, locale) })}</p>}
    </div>
  );
}
