"use client";
// The dashboard's performance tab (docs/performance.md, "Console"): a range (24 hours, 7 or 30
// days; hourly points up to two days, daily past them), for everyone the models of their groups
// (one group or all), for admins also every group and the channels; four charts (success rate,
// median TTFT, median latency, output speed) of the eight keys with the most calls, and a table
// of every key over the whole range. Rows from GET /api/perf/models and /api/perf/channels.
import { useTranslations } from "next-intl";
import dynamic from "next/dynamic";
import { useEffect, useMemo, useState } from "react";
import useSWR from "swr";
import { Alert, Card } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { Badge } from "@/components/ui/badge";
import { failureText } from "@/lib/client/failure";
import {
  formatMs,
  formatRate,
  keyOf,
  labelOf,
  PERF_HOURLY_DAYS,
  PERF_PRESETS,
  perfPoints,
  rateColor,
  topKeys,
  type PerfPresetKey,
  type PerfRow,
} from "@/lib/client/perf";
import { nowSeconds } from "@/lib/time";

const chartSlot = () => <div className="h-[260px] w-full" aria-hidden />;
const PerfLineChart = dynamic(() => import("./perf-chart").then((m) => m.PerfLineChart), { ssr: false, loading: chartSlot });

const SHOWN = 8;
type View = "models" | "channels";

export function PerfPanel({ admin }: { admin: boolean }) {
  const t = useTranslations("perf");
  const errorText = useTranslations("errors");
  const [preset, setPreset] = useState<PerfPresetKey>("24h");
  const [view, setView] = useState<View>("models");
  const [group, setGroup] = useState("");
  const [end, setEnd] = useState<number | null>(null);
  // the range depends on the browser's clock: set after mount
  useEffect(() => setEnd(nowSeconds()), [preset]);
  const { data: myGroups } = useSWR<Record<string, unknown>>(admin ? null : "/api/user/self/groups");
  const { data: allGroups } = useSWR<string[]>(admin ? "/api/group/" : null);
  const groups = admin ? (allGroups ?? []) : Object.keys(myGroups ?? {});

  const seconds = PERF_PRESETS.find((p) => p.key === preset)!.seconds;
  const hourly = seconds <= PERF_HOURLY_DAYS * 86_400;
  const base =
    end === null
      ? null
      : `/api/perf/${view}?start_timestamp=${end - seconds + 1}&end_timestamp=${end}${view === "models" && group ? `&group=${encodeURIComponent(group)}` : ""}`;
  const { data: totals, error } = useSWR<PerfRow[]>(base ? `${base}&granularity=total` : null);
  const keys = useMemo(() => topKeys(totals ?? [], SHOWN), [totals]);
  const labels = useMemo(() => new Map((totals ?? []).map((r) => [keyOf(r), labelOf(r)])), [totals]);
  // the charts' points: the rows of the charted models only (docs/performance.md, "Console")
  const only = view === "models" && keys.length ? `&model_name=${encodeURIComponent(keys.join(","))}` : "";
  const { data: rows } = useSWR<PerfRow[]>(base && totals?.length ? `${base}&granularity=${hourly ? "hour" : "day"}${only}` : null);
  const sorted = useMemo(() => [...(totals ?? [])].sort((a, b) => b.calls - a.calls || keyOf(a).localeCompare(keyOf(b))), [totals]);

  const charts = [
    { metric: "success_rate" as const, title: t("charts.successRate"), format: (v: number) => `${v}%` },
    { metric: "ttft_p50_ms" as const, title: t("charts.ttft"), format: (v: number) => formatMs(v) },
    { metric: "latency_p50_ms" as const, title: t("charts.latency"), format: (v: number) => formatMs(v) },
    { metric: "output_tps" as const, title: t("charts.tps"), format: (v: number) => String(v) },
  ];

  return (
    <div data-testid="perf-panel">
      <div className="mb-5 flex flex-wrap items-end gap-3" role="group" aria-label={t("filters")}>
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-zinc-700 dark:text-zinc-300">{t("range")}</span>
          <Select value={preset} onChange={(e) => setPreset(e.target.value as PerfPresetKey)} aria-label={t("range")}>
            {PERF_PRESETS.map((p) => (
              <option key={p.key} value={p.key}>
                {t(`preset.${p.key}`)}
              </option>
            ))}
          </Select>
        </label>
        {admin && (
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium text-zinc-700 dark:text-zinc-300">{t("view")}</span>
            <Select value={view} onChange={(e) => setView(e.target.value as View)} aria-label={t("view")}>
              <option value="models">{t("views.models")}</option>
              <option value="channels">{t("views.channels")}</option>
            </Select>
          </label>
        )}
        {view === "models" && (
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium text-zinc-700 dark:text-zinc-300">{t("group")}</span>
            <Select value={group} onChange={(e) => setGroup(e.target.value)} aria-label={t("group")}>
              <option value="">{admin ? t("allGroups") : t("myGroups")}</option>
              {groups.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </Select>
          </label>
        )}
        <p className="pb-2 text-xs text-zinc-500 dark:text-zinc-400">{t("note")}</p>
      </div>

      {error && (
        <div className="mb-4">
          <Alert tone="error">{t("loadFailed", { reason: failureText(error, errorText) })}</Alert>
        </div>
      )}
      {totals && totals.length === 0 && (
        <div className="mb-4">
          <Alert>{t("empty")}</Alert>
        </div>
      )}
      {rows && totals && totals.length > 0 && (
        <div className="grid gap-4 lg:grid-cols-2">
          {charts.map((c) => (
            <Card key={c.metric} title={c.title}>
              <PerfLineChart
                points={perfPoints(rows, keys, c.metric)}
                names={keys.map((k) => labels.get(k) ?? k)}
                hourly={hourly}
                format={c.format}
                testId={`perf-chart-${c.metric}`}
              />
            </Card>
          ))}
        </div>
      )}
      {totals && totals.length > 0 && (
        <Card title={view === "models" ? t("tableModels") : t("tableChannels")} className="mt-4">
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="perf-table">
              <thead>
                <tr className="border-b border-zinc-200 text-left text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
                  {[
                    view === "models" ? t("col.model") : t("col.channel"),
                    t("col.calls"),
                    t("col.successRate"),
                    t("col.ttft"),
                    t("col.latency"),
                    t("col.tps"),
                  ].map((h, i) => (
                    <th key={h} className={i === 0 ? "py-2 pr-3 font-medium" : "py-2 pr-3 text-right font-medium"}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {sorted.map((r) => (
                  <tr key={keyOf(r)} className="border-b border-zinc-100 last:border-0 dark:border-zinc-800/60" data-testid={`perf-row-${keyOf(r)}`}>
                    <td className="max-w-64 truncate py-2 pr-3 font-mono text-xs text-zinc-900 dark:text-zinc-100">{labelOf(r)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{r.calls}</td>
                    <td className="py-2 pr-3 text-right">
                      <Badge color={rateColor(r.success_rate)}>{formatRate(r.success_rate)}</Badge>
                    </td>
                    <td className="py-2 pr-3 text-right tabular-nums">
                      {formatMs(r.ttft_p50_ms)} / {formatMs(r.ttft_p95_ms)}
                    </td>
                    <td className="py-2 pr-3 text-right tabular-nums">
                      {formatMs(r.latency_p50_ms)} / {formatMs(r.latency_p95_ms)}
                    </td>
                    <td className="py-2 pr-3 text-right tabular-nums">{r.output_tps ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      )}
    </div>
  );
}
