"use client";
// The wallet's "My limits" card (docs/console-ui.md, "Limits"): every limit GET
// /api/usage/limits answers for the signed-in user (the account's, a plan's, the tokens'),
// each a meter with what is used and when it frees; a note when none applies.
import { RotateCw } from "lucide-react";
import { useTranslations } from "next-intl";
import { LimitMeters } from "@/components/limits/limit-meter";
import { limitUsagePath, useLimitUsage } from "@/components/limits/use-limit-usage";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { LIMIT_KINDS, type LimitUsage } from "@/lib/client/limits";

const SCOPE_ORDER: LimitUsage["scope"][] = ["user", "plan", "token"];
const rank = (r: LimitUsage) => SCOPE_ORDER.indexOf(r.scope) * 1000 + (r.token_id ?? 0) * 10 + (LIMIT_KINDS as readonly string[]).indexOf(r.limit);

export function LimitsCard() {
  const t = useTranslations("limits");
  const { data, error, isValidating, mutate } = useLimitUsage(limitUsagePath());
  const rows = [...(data ?? [])].filter((r) => r.max > 0).sort((a, b) => rank(a) - rank(b));
  return (
    <Card
      title={t("wallet.title")}
      actions={
        <Button size="sm" variant="ghost" onClick={() => void mutate()} disabled={isValidating} aria-label={t("wallet.refresh")}>
          <RotateCw aria-hidden className={isValidating ? "h-3.5 w-3.5 animate-spin" : "h-3.5 w-3.5"} />
          <span className="hidden sm:inline">{t("wallet.refresh")}</span>
        </Button>
      }
    >
      <div data-testid="wallet-limits">
        <p className="-mt-2 mb-4 text-sm text-zinc-500 dark:text-zinc-400">{t("wallet.description")}</p>
        {!data && error ? (
          <p className="text-sm text-red-600 dark:text-red-400">{t("wallet.loadFailed")}</p>
        ) : !data ? (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">…</p>
        ) : (
          <LimitMeters
            rows={rows}
            showScope
            empty={
              <p className="text-sm text-zinc-500 dark:text-zinc-400" data-testid="wallet-limits-empty">
                {t("wallet.empty")}
              </p>
            }
          />
        )}
      </div>
    </Card>
  );
}
