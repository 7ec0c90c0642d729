"use client";
// /app/logs/api-usage (docs/channels-tokens-billing.md): filters, summary (quota, rpm, tpm), columns
// (admin-only: channel, username, retry), detail rows with the log's other data, on the
// console's DataTable (docs/console-ui.md). Admins read /api/log/ and /api/log/stat; everyone
// else the self endpoints.
import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import useSWR from "swr";
import { DataTable, useServerPaging } from "@/components/data-table";
import { useQuotaDisplay, useSessionUser, useStatus } from "@/components/layout/providers";
import { Badge } from "@/components/ui/badge";
import { Alert, PageTitle } from "@/components/ui/card";
import { formatTimestamp, renderQuota } from "@/lib/client/format";
import { can } from "@/lib/client/navigation";
import { logColumns } from "./log-columns";
import { LogDetail, UserInfoDialog } from "./log-detail";
import { initialLogFilters, LogFilterForm, logQuery, type LogFilters } from "./log-filters";
import { SCAN_WINDOW } from "@/lib/logs/scan-window";
import type { Log, LogPage, LogStat } from "./types";

export function UsageLogsPage() {
  const t = useTranslations("logs");
  const format = useFormatter();
  const tokens = useTranslations("tokens");
  const chatContentLogged = useStatus().log_chat_content_enabled;
  const display = useQuotaDisplay();
  // the admin view: every user's rows (logs:read, docs/permissions.md); else the own view
  const admin = can(useSessionUser(), "logs:read");
  const [draft, setDraft] = useState<LogFilters | null>(null);
  const [filters, setFilters] = useState<LogFilters | null>(null);
  const paging = useServerPaging(filters);
  const [userInfo, setUserInfo] = useState<number | null>(null);

  // The default time range depends on the browser's clock and zone: set after mount.
  useEffect(() => {
    const f = initialLogFilters(Date.now());
    setDraft(f);
    setFilters(f);
  }, []);

  const q = filters ? logQuery(filters, admin) : null;
  const base = admin ? "/api/log" : "/api/log/self";
  const listPath = q && paging.pageSize !== null ? `${base}/?${q}&p=${paging.page + 1}&page_size=${paging.pageSize}` : null;
  const statPath = q ? `${base}/stat?${q}` : null;
  const { data, error, isLoading, mutate } = useSWR<LogPage>(listPath);
  const { data: stat } = useSWR<LogStat>(statPath);
  const columns = logColumns({ t, display, admin, onUser: setUserInfo });

  return (
    <div className="mx-auto w-full max-w-[90rem] px-4 py-6">
      <PageTitle>{t("title")}</PageTitle>
      {chatContentLogged && (
        <div className="mb-4">
          <Alert tone="warning">{tokens("chatContentNotice")}</Alert>
        </div>
      )}
      <div className="mb-4 flex flex-wrap gap-3" role="group" aria-label={t("summary")}>
        <Badge color="blue" className="px-3 py-1 text-sm">
          {t("statQuota", { quota: renderQuota(stat?.quota ?? 0, display) })}
        </Badge>
        <Badge color="purple" className="px-3 py-1 text-sm">
          {t("statRpm", { rpm: stat?.rpm ?? 0 })}
        </Badge>
        <Badge color="gray" className="px-3 py-1 text-sm">
          {t("statTpm", { tpm: stat?.tpm ?? 0 })}
        </Badge>
      </div>
      {stat?.searched_from != null && (
        <p className="-mt-2 mb-4 text-sm text-amber-700 dark:text-amber-400" role="note" data-testid="log-stat-scan-window">
          {t("statScanWindow", { rows: format.number(SCAN_WINDOW), time: formatTimestamp(stat.searched_from) })}
        </p>
      )}
      {draft && (
        <LogFilterForm
          draft={draft}
          onDraft={setDraft}
          admin={admin}
          onSearch={() => setFilters({ ...draft })}
          onReset={() => {
            const f = initialLogFilters(Date.now());
            setDraft(f);
            setFilters(f);
          }}
        />
      )}
      {data?.searched_from != null && (
        <p className="mb-3 text-sm text-amber-700 dark:text-amber-400" role="note" data-testid="log-scan-window">
          {t("scanWindow", { rows: format.number(SCAN_WINDOW), time: formatTimestamp(data.searched_from) })}
        </p>
      )}
      <DataTable<Log>
        id={admin ? "usage-logs-admin" : "usage-logs"}
        columns={columns}
        rows={data?.items}
        getRowId={(log) => String(log.id)}
        loading={isLoading}
        error={error}
        onRetry={() => void mutate()}
        emptyText={t("empty")}
        errorText={t("loadFailed")}
        rowProps={(log) => ({ "data-testid": `log-row-${log.id}` })}
        renderDetail={(log) => <LogDetail log={log} admin={admin} />}
        paging={
          paging.pageSize === null
            ? undefined
            : {
                page: paging.page,
                pageSize: paging.pageSize,
                total: data?.total ?? 0,
                totalExact: data?.total_exact ?? true,
                onPage: paging.setPage,
                onPageSize: paging.setPageSize,
              }
        }
      />
      <UserInfoDialog userId={userInfo} onClose={() => setUserInfo(null)} />
    </div>
  );
}
