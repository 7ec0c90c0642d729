"use client";
// /app/dashboard (docs/dashboard.md, "The page"): a time range (presets or two pickers), the
// granularity (hour, day, week; default DataExportDefaultTime), stat cards (balance, used,
// calls, average RPM and TPM), quota and calls over time by model, tokens over time, each
// model's share; admins choose themselves, all users or one user, and see the top users and
// models. Rows come from GET /api/data/self or GET /api/data/ (hourly, per model). A second
// tab shows the models' and channels' performance (components/perf/perf-panel.tsx).
import { useFormatter, useLocale, useTranslations } from "next-intl";
import dynamic from "next/dynamic";
import { useEffect, useMemo, useState } from "react";
import useSWR from "swr";
import { RefreshCw } from "lucide-react";
import { useQuotaDisplay, useSessionUser, useStatus } from "@/components/layout/providers";
import { Alert, Card, PageTitle, Stat } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { DateTimeField, UnixTimePicker } from "@/components/ui/date-time-picker";
import { api } from "@/lib/client/api";
import { failureText } from "@/lib/client/failure";
import { localDateTime, renderQuota, shortenNumber } from "@/lib/client/format";
import { can } from "@/lib/client/navigation";
import {
  buildSeries,
  granularityOf,
  HOURLY_MAX_DAYS,
  GRANULARITIES,
  hourRange,
  modelShares,
  openingPreset,
  PRESETS,
  formatRate,
  totals,
  type DataRow,
  type Granularity,
  type PresetKey,
} from "@/lib/client/dashboard";
import type { QuotaFormat } from "./charts";
import { nowSeconds } from "@/lib/time";
import { Tabs } from "@/components/ui/tabs";
import { PerfPanel } from "@/components/perf/perf-panel";

// recharts (about 135 kB gzipped) is a chunk of its own, fetched while the numbers above the
// charts are shown; each chart keeps its height meanwhile (docs/console-ui.md, "Page weight").
const chartSlot = () => <div className="h-[280px] w-full" aria-hidden />;
const QuotaChart = dynamic(() => import("./charts").then((m) => m.QuotaChart), { ssr: false, loading: chartSlot });
const CallsChart = dynamic(() => import("./charts").then((m) => m.CallsChart), { ssr: false, loading: chartSlot });
const TokensChart = dynamic(() => import("./charts").then((m) => m.TokensChart), { ssr: false, loading: chartSlot });
const ShareChart = dynamic(() => import("./charts").then((m) => m.ShareChart), { ssr: false, loading: chartSlot });

type Scope = "self" | "all" | "user";
type Summary = { balance: number; top_users: { user_id: number; username: string; count: number; token_used: number; quota: number }[] };
type Self = { quota: number };

const nowSec = () => nowSeconds();

export function DashboardPage() {
  const t = useTranslations("dashboard");
  const format = useFormatter();
  const locale = useLocale();
  // the charts' chunk is fetched beside the first rows, not after them
  useEffect(() => {
    void import("./charts");
  }, []);
  const errorText = useTranslations("errors");
  const status = useStatus();
  const display = useQuotaDisplay();
  // the admin view: every user's rows (logs:read, docs/permissions.md); else the own view
  const admin = can(useSessionUser(), "logs:read");
  const [granularity, setGranularity] = useState<Granularity>(granularityOf(status.data_export_default_time));
  // It opens on the recent traffic: a range fit for the default granularity, and for admins
  // every user's usage (docs/dashboard.md, "The page").
  const opening = openingPreset(granularityOf(status.data_export_default_time));
  const [preset, setPreset] = useState<PresetKey | "custom">(opening);
  const [range, setRange] = useState<{ start: number; end: number } | null>(null);
  const [scope, setScope] = useState<Scope>(admin ? "all" : "self");
  const [userDraft, setUserDraft] = useState("");
  const [username, setUsername] = useState("");
  const [refreshing, setRefreshing] = useState(false);
  // the usage charts or the performance tab (docs/performance.md)
  const [tab, setTab] = useState<"usage" | "performance">("usage");

  // The range depends on the browser's clock: set after mount.
  useEffect(() => {
    const now = nowSec();
    setRange({ start: now - PRESETS.find((p) => p.key === opening)!.seconds, end: now });
  }, [opening]);

  const hours = range ? hourRange(range.start, range.end) : null;
  // hourly bars only up to HOURLY_MAX_DAYS: past that the day view stands in (the choice is kept)
  const hourly = !hours || hours.end - hours.start <= HOURLY_MAX_DAYS * 86_400;
  const shown: Granularity = granularity === "hour" && !hourly ? "day" : granularity;
  const qs = hours ? `start_timestamp=${hours.start}&end_timestamp=${hours.end}` : "";
  // day and week views ask for the rows summed per day of the browser's zone (far fewer rows)
  const rowsQs = shown === "hour" ? qs : `${qs}&tz=${encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone)}`;
  const target = scope === "user" ? username.trim() : "";
  const dataPath =
    !hours || (scope === "user" && !target)
      ? null
      : scope === "self"
        ? `/api/data/self?${rowsQs}`
        : `/api/data/?${rowsQs}${target ? `&username=${encodeURIComponent(target)}` : ""}`;
  const summaryPath =
    admin && hours && scope !== "self" && (scope === "all" || target)
      ? `/api/data/summary?${qs}${target ? `&username=${encodeURIComponent(target)}` : ""}`
      : null;
  const { data: rows, error, isLoading, mutate } = useSWR<DataRow[]>(dataPath);
  const { data: summary, mutate: mutateSummary } = useSWR<Summary>(summaryPath);
  const { data: self } = useSWR<Self>(scope === "self" ? "/api/user/self" : null);

  const series = useMemo(() => (rows && hours ? buildSeries(rows, hours.start, hours.end, shown) : null), [rows, hours?.start, hours?.end, shown]); // eslint-disable-line react-hooks/exhaustive-deps
  const sums = useMemo(() => (rows && hours ? totals(rows, hours.start, hours.end, nowSec()) : null), [rows, hours?.start, hours?.end]); // eslint-disable-line react-hooks/exhaustive-deps
  const shares = useMemo(() => (rows ? modelShares(rows) : []), [rows]);
  const fmt: QuotaFormat = (q) => renderQuota(q, display);
  const balance = scope === "self" ? self?.quota : summary?.balance;

  const choosePreset = (key: PresetKey | "custom") => {
    setPreset(key);
    const p = PRESETS.find((x) => x.key === key);
    if (p) {
      const now = nowSec();
      setRange({ start: now - p.seconds, end: now });
    }
  };

  const refresh = async () => {
    setRefreshing(true);
    try {
      await api.post("/api/data/refresh", {});
      await Promise.all([mutate(), mutateSummary()]);
    } catch {
      // the failure was reported by api
    } finally {
      setRefreshing(false);
    }
  };

  const usageTab = (
    <>
      <div className="mb-5 flex flex-wrap items-end gap-3" role="group" aria-label={t("filters")}>
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-zinc-700 dark:text-zinc-300">{t("range")}</span>
          <Select value={preset} onChange={(e) => choosePreset(e.target.value as PresetKey | "custom")} aria-label={t("range")}>
            {PRESETS.map((p) => (
              <option key={p.key} value={p.key}>
                {t(`preset.${p.key}`)}
              </option>
            ))}
            <option value="custom">{t("preset.custom")}</option>
          </Select>
        </label>
        {preset === "custom" && range && (
          <>
            <DateTimeField label={t("start")}>
              {(id) => (
                <UnixTimePicker
                  id={id}
                  label={t("start")}
                  value={range.start}
                  clearable={false}
                  onChange={(v) => v !== null && setRange({ start: v, end: range.end })}
                />
              )}
            </DateTimeField>
            <DateTimeField label={t("end")}>
              {(id) => (
                <UnixTimePicker
                  id={id}
                  label={t("end")}
                  value={range.end}
                  clearable={false}
                  onChange={(v) => v !== null && setRange({ start: range.start, end: v })}
                />
              )}
            </DateTimeField>
          </>
        )}
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-zinc-700 dark:text-zinc-300">{t("granularity")}</span>
          <Select value={shown} onChange={(e) => setGranularity(granularityOf(e.target.value))} aria-label={t("granularity")}>
            {GRANULARITIES.map((g) => (
              <option key={g} value={g} disabled={g === "hour" && !hourly}>
                {t(`by.${g}`)}
              </option>
            ))}
          </Select>
        </label>
        {admin && (
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium text-zinc-700 dark:text-zinc-300">{t("scope")}</span>
            <Select value={scope} onChange={(e) => setScope(e.target.value as Scope)} aria-label={t("scope")}>
              <option value="self">{t("scopes.self")}</option>
              <option value="all">{t("scopes.all")}</option>
              <option value="user">{t("scopes.user")}</option>
            </Select>
          </label>
        )}
        {admin && scope === "user" && (
          <form
            className="flex items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              setUsername(userDraft.trim());
            }}
          >
            <label className="flex flex-col gap-1 text-sm">
              <span className="font-medium text-zinc-700 dark:text-zinc-300">{t("username")}</span>
              <Input value={userDraft} onChange={(e) => setUserDraft(e.target.value)} placeholder={t("usernamePlaceholder")} maxLength={200} />
            </label>
            <Button type="submit" size="sm">
              {t("show")}
            </Button>
          </form>
        )}
        {hours && (
          <p className="pb-2 text-xs text-zinc-500 dark:text-zinc-400" data-testid="dashboard-hours">
            {t("hoursNote", { from: localDateTime(hours.start, locale), to: localDateTime(hours.end + 3600, locale) })}
          </p>
        )}
      </div>

      {error && (
        <div className="mb-4">
          <Alert tone="error">{t("loadFailed", { reason: failureText(error, errorText) })}</Alert>
        </div>
      )}
      {scope === "user" && !target && (
        <div className="mb-4">
          <Alert>{t("enterUsername")}</Alert>
        </div>
      )}

      <div className="mb-5 grid grid-cols-2 gap-3 md:grid-cols-5" role="group" aria-label={t("cards")}>
        <Card>
          <Stat
            label={scope === "all" ? t("balanceAll") : t("balance")}
            value={<span data-testid="card-balance">{balance === undefined ? "—" : fmt(balance)}</span>}
          />
        </Card>
        <Card>
          <Stat label={t("used")} value={<span data-testid="card-used">{sums ? fmt(sums.quota) : "—"}</span>} />
        </Card>
        <Card>
          <Stat label={t("calls")} value={<span data-testid="card-calls">{sums ? format.number(sums.count) : "—"}</span>} />
        </Card>
        <Card>
          <Stat label={t("rpm")} value={<span data-testid="card-rpm">{sums ? formatRate(sums.rpm) : "—"}</span>} />
        </Card>
        <Card>
          <Stat label={t("tpm")} value={<span data-testid="card-tpm">{sums ? formatRate(sums.tpm) : "—"}</span>} />
        </Card>
      </div>

      {isLoading && !rows && <p className="text-sm text-zinc-500">{t("loading")}</p>}
      {series && rows && rows.length === 0 && (
        <div className="mb-4">
          <Alert>{t("empty")}</Alert>
        </div>
      )}
      {series && rows && rows.length > 0 && (
        <div className="grid gap-4 lg:grid-cols-2">
          <Card title={t("charts.quota")}>
            <QuotaChart series={series} granularity={shown} format={fmt} otherLabel={t("other")} totalLabel={t("total")} />
          </Card>
          <Card title={t("charts.calls")}>
            <CallsChart series={series} granularity={shown} otherLabel={t("other")} totalLabel={t("total")} />
          </Card>
          <Card title={t("charts.tokens")}>
            <TokensChart series={series} granularity={shown} labels={{ prompt: t("prompt"), completion: t("completion") }} />
          </Card>
          <Card title={t("charts.share")}>
            <ShareChart shares={shares} format={fmt} otherLabel={t("other")} />
          </Card>
          <Card title={t("topModels")}>
            <TopTable
              head={[t("model"), t("calls"), t("tokens"), t("used"), t("share")]}
              rows={shares.slice(0, 10).map((s) => [s.model, format.number(s.count), shortenNumber(s.tokens), fmt(s.quota), `${(s.share * 100).toFixed(1)}%`])}
              testId="top-models"
            />
          </Card>
          {admin && scope !== "self" && summary && (
            <Card title={t("topUsers")}>
              <TopTable
                head={[t("user"), t("calls"), t("tokens"), t("used")]}
                rows={summary.top_users.map((u) => [`${u.username} (#${u.user_id})`, format.number(u.count), shortenNumber(u.token_used), fmt(u.quota)])}
                testId="top-users"
              />
            </Card>
          )}
        </div>
      )}
    </>
  );

  return (
    <div className="mx-auto w-full max-w-[90rem] px-4 py-6">
      <PageTitle
        actions={
          admin && (
            <Button variant="secondary" size="sm" onClick={() => void refresh()} disabled={refreshing}>
              <RefreshCw className={refreshing ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden />
              {t("refresh")}
            </Button>
          )
        }
      >
        {t("title")}
      </PageTitle>

      <Tabs
        value={tab}
        onValueChange={(v) => setTab(v === "performance" ? "performance" : "usage")}
        items={[
          { value: "usage", label: t("tabs.usage"), content: tab === "usage" ? usageTab : null },
          { value: "performance", label: t("tabs.performance"), content: tab === "performance" ? <PerfPanel admin={admin} /> : null },
        ]}
      />
    </div>
  );
}

function TopTable({ head, rows, testId }: { head: string[]; rows: string[][]; testId: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid={testId}>
        <thead>
          <tr className="border-b border-zinc-200 text-left text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
            {head.map((h, i) => (
              <th key={h} className={i === 0 ? "py-2 pr-3 font-medium" : "py-2 pr-3 text-right font-medium"}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r[0]} className="border-b border-zinc-100 last:border-0 dark:border-zinc-800/60">
              {r.map((c, i) => (
                <td
                  key={i}
                  className={
                    i === 0
                      ? "max-w-64 truncate py-2 pr-3 text-zinc-900 dark:text-zinc-100"
                      : "py-2 pr-3 text-right tabular-nums text-zinc-700 dark:text-zinc-300"
                  }
                >
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
