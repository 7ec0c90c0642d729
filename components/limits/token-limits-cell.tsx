"use client";
// The token list's limits column (docs/console-ui.md, "Limits"): a compact meter per limit
// set on the token, with what the token uses now; nothing for a token without limits (and
// then nothing is fetched).
import { useTranslations } from "next-intl";
import { limitValues, metersOf, LIMIT_FIELD_LIST } from "@/lib/client/limits";
import { LimitMeters } from "./limit-meter";
import { limitUsagePath, useLimitUsage } from "./use-limit-usage";

export function TokenLimitsCell({ token }: { token: { id: number } & Partial<Record<string, unknown>> }) {
  const t = useTranslations("limits");
  const values = limitValues(token);
  const any = LIMIT_FIELD_LIST.some((f) => values[f] > 0);
  const { data } = useLimitUsage(any ? limitUsagePath({ token_id: token.id }) : null);
  if (!any) return <span className="text-xs text-zinc-400 dark:text-zinc-500">{t("noneSet")}</span>;
  return <LimitMeters compact rows={metersOf(values, data, "token")} />;
}
