"use client";
// A subscription's meter (docs/console-ui.md, "Plans"): the period's quota used and left as a
// bar, and when the period resets. Used by the wallet and by the admin's subscriber list.
import { useTranslations } from "next-intl";
import type { BadgeColor } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { formatTimestamp, renderQuota, type QuotaDisplay } from "@/lib/client/format";
import type { Subscription } from "./types";

export const subscriptionColor = (status: string): BadgeColor =>
  status === "active" ? "green" : status === "expired" ? "gray" : status === "cancelled" ? "orange" : "red";

/** The share of the period's quota used, 0..100 (a period of 0 counts as used up). */
export function usedPercent(used: number, total: number): number {
  if (total <= 0) return 100;
  return Math.min(100, Math.max(0, (used / total) * 100));
}

export function PlanMeter({ sub, display, compact = false }: { sub: Subscription; display: QuotaDisplay; compact?: boolean }) {
  const t = useTranslations("plans.meter");
  // this period's quota: what the plan grants plus what was carried over into it
  const total = sub.period_quota + sub.carried;
  const left = sub.remaining;
  const pct = usedPercent(sub.period_used, total);
  const tone = pct >= 100 ? "bg-red-500" : pct >= 80 ? "bg-orange-500" : "bg-blue-600";
  return (
    <div className={cn("flex flex-col", compact ? "gap-1 text-xs" : "gap-1.5 text-sm")} data-testid={`plan-meter-${sub.id}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-zinc-700 dark:text-zinc-300">
        <span data-testid="meter-used">{t("used", { used: renderQuota(sub.period_used, display), total: renderQuota(total, display) })}</span>
        <span className="text-zinc-500 dark:text-zinc-400" data-testid="meter-left">
          {t("left", { left: renderQuota(left, display) })}
        </span>
      </div>
      <div
        role="meter"
        aria-label={t("label")}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={Math.min(sub.period_used, total)}
        className="h-2 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-700"
      >
        <div className={cn("h-full rounded-full", tone)} style={{ width: `${pct}%` }} />
      </div>
      {sub.status === "active" && (
        <span className="text-xs text-zinc-500 dark:text-zinc-400">
          {sub.next_reset_at ? t("resetsAt", { time: formatTimestamp(sub.next_reset_at) }) : t("noReset")}
        </span>
      )}
    </div>
  );
}
