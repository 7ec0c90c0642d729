"use client";
// A limit and what is used of it now (docs/console-ui.md, "Limits"): its label, used / max
// (quota limits in the site's quota display, lib/client/format.ts), a thin bar, and when it
// frees in the title (hover) and, unless compact, under the bar.
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { useQuotaDisplay } from "@/components/layout/providers";
import { cn } from "@/components/ui/cn";
import { formatTimestamp, renderQuota, shortenNumber } from "@/lib/client/format";
import { isQuotaLimit, meterTone, usedShare, type LimitName, type LimitUsage } from "@/lib/client/limits";

const BAR = { ok: "bg-emerald-500 dark:bg-emerald-400", warn: "bg-amber-500 dark:bg-amber-400", full: "bg-red-500 dark:bg-red-400" } as const;

export type LimitMeterProps = {
  limit: LimitName;
  used: number;
  max: number;
  resetAt?: number | null;
  /** a one-line meter for table cells */
  compact?: boolean;
  /** prefixes the label (the wallet names whose limit it is: token, account, plan) */
  scope?: string;
  className?: string;
};

export function LimitMeter({ limit, used, max, resetAt, compact = false, scope, className }: LimitMeterProps) {
  const t = useTranslations("limits");
  const display = useQuotaDisplay();
  const amount = (n: number) => (isQuotaLimit(limit) ? renderQuota(n, display) : shortenNumber(n));
  const label = scope ? t("scoped", { scope, limit: t(`label.${limit}`) }) : t(`label.${limit}`);
  const share = usedShare(used, max);
  const tone = meterTone(used, max);
  const reset = resetAt ? formatTimestamp(resetAt) : "";
  const when = reset ? t("resetsAt", { time: reset }) : limit === "concurrency" ? t("inFlight") : "";
  const numbers = t("usedOf", { used: amount(used), max: amount(max) });
  return (
    <div
      className={cn("flex min-w-0 flex-col", compact ? "w-36 gap-0.5" : "gap-1", className)}
      title={when ? `${label}: ${numbers} · ${when}` : `${label}: ${numbers}`}
      data-testid="limit-meter"
      data-limit={limit}
      data-scope={scope}
      data-used={used}
      data-max={max}
    >
      <div className={cn("flex items-baseline justify-between gap-2", compact ? "text-[11px] leading-4" : "text-xs")}>
        <span className="truncate font-medium text-zinc-700 dark:text-zinc-300">{label}</span>
        <span className="shrink-0 text-zinc-500 tabular-nums dark:text-zinc-400">{numbers}</span>
      </div>
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={Math.min(used, max)}
        aria-valuetext={when ? `${numbers}, ${when}` : numbers}
        className={cn("overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-700", compact ? "h-1" : "h-1.5")}
      >
        <div className={cn("h-full rounded-full transition-[width]", BAR[tone])} style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
      {!compact && when && <span className="text-[11px] text-zinc-500 dark:text-zinc-400">{when}</span>}
    </div>
  );
}

/** A list of meters (the rows of GET /api/usage/limits or a record's limits); `empty` when there are none. */
export function LimitMeters({
  rows,
  compact = false,
  showScope = false,
  empty,
  className,
}: {
  rows: LimitUsage[];
  compact?: boolean;
  showScope?: boolean;
  empty?: ReactNode;
  className?: string;
}) {
  const t = useTranslations("limits");
  const scopeLabel = (r: LimitUsage) => {
    const name = r.token_name ?? (r.token_id !== undefined ? `#${r.token_id}` : "");
    return r.scope === "token" && name ? `${t("scope.token")} ${name}` : t(`scope.${r.scope}`);
  };
  if (rows.length === 0) return empty ? <>{empty}</> : null;
  return (
    <div className={cn(compact ? "flex flex-col gap-1.5" : "grid gap-3 sm:grid-cols-2", className)}>
      {rows.map((r) => (
        <LimitMeter
          key={`${r.scope}:${r.limit}:${r.token_id ?? ""}`}
          limit={r.limit}
          used={r.used}
          max={r.max}
          resetAt={r.reset_at}
          compact={compact}
          scope={showScope ? scopeLabel(r) : undefined}
        />
      ))}
    </div>
  );
}
