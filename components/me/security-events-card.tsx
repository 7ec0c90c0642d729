"use client";
// The "security events" card of /app/me (docs/audit.md): the caller's own audit rows, newest
// first (sign-ins and refused ones with their reason, password, 2FA, passkey, token and session
// changes, an admin's acts on the account), ten more at each "show more", and the CSV of all.
import { Download, ShieldAlert, ShieldCheck } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import useSWR from "swr";
import { ActionBadge, detailText } from "@/components/audit/labels";
import type { AuditPage } from "@/components/audit/types";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useCsvExport } from "@/lib/client/download-csv";
import { formatTimestamp } from "@/lib/client/format";
import { deviceLabel } from "@/lib/sessions/device";

const STEP = 10;
const MAX = 100;

export function SecurityEventsCard() {
  const t = useTranslations("audit");
  const [size, setSize] = useState(STEP);
  const csv = useCsvExport("x-audit-rows-capped", { capped: "audit.exportCapped", done: "audit.exported" });
  const { data, error } = useSWR<AuditPage>(`/api/audit/self?page_size=${size}`);
  const events = data?.items;

  const exportCsv = () => csv.exportCsv("/api/audit/self?format=csv", "security-events.csv");

  return (
    <Card
      title={t("security.title")}
      actions={
        <Button variant="secondary" size="sm" disabled={csv.exporting || !events?.length} onClick={() => void exportCsv()}>
          <Download className="size-4" aria-hidden />
          {t("security.export")}
        </Button>
      }
    >
      <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">{t("security.help")}</p>
      {!data && !error && <p className="text-sm text-zinc-500">{t("security.loading")}</p>}
      {error && !data && <p className="text-sm text-red-600">{t("security.failed")}</p>}
      {events && events.length === 0 && <p className="text-sm text-zinc-500">{t("security.empty")}</p>}
      {events && events.length > 0 && (
        <ul
          className="flex flex-col divide-y divide-zinc-100 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          aria-label={t("security.title")}
          data-testid="security-events"
        >
          {events.map((e) => {
            const Icon = e.action === "login_failed" ? ShieldAlert : ShieldCheck;
            const where = [e.ip ? t("security.from", { ip: e.ip }) : "", e.user_agent ? deviceLabel(e.user_agent) : "", e.by_admin ? t("byAdmin") : ""].filter(
              Boolean,
            );
            const detail = detailText(t, e);
            return (
              <li key={e.id} className="flex items-start gap-2 px-3 py-2 text-sm" data-action={e.action}>
                <Icon
                  className={
                    e.action === "login_failed"
                      ? "mt-0.5 size-4 shrink-0 text-red-600 dark:text-red-400"
                      : "mt-0.5 size-4 shrink-0 text-zinc-500 dark:text-zinc-400"
                  }
                  aria-hidden
                />
                <div className="flex min-w-0 flex-col gap-0.5">
                  <span className="flex flex-wrap items-center gap-2">
                    <ActionBadge t={t} action={e.action} />
                    <span className="text-xs text-zinc-500 dark:text-zinc-400">{formatTimestamp(e.created_at)}</span>
                  </span>
                  {(where.length > 0 || detail) && (
                    <span className="text-xs break-all text-zinc-500 dark:text-zinc-400" title={e.user_agent || undefined}>
                      {[...where, detail].filter(Boolean).join(" · ")}
                    </span>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {data && data.total > events!.length && size < MAX && (
        <Button variant="ghost" size="sm" className="mt-2" onClick={() => setSize(Math.min(MAX, size + STEP))}>
          {t("security.more")}
        </Button>
      )}
    </Card>
  );
}
