"use client";
// The token list's limits column (docs/console-ui.md, "Limits"): a compact meter per limit
// set on the token, with what the token uses now (`usage`: its rows of the page's one
// GET /api/usage/limits?token_ids= call, useTokensLimitUsage); nothing for a token without limits.
import { useTranslations } from "next-intl";
import { limitValues, metersOf, LIMIT_FIELD_LIST, type LimitUsage } from "@/lib/client/limits";
import { LimitMeters } from "./limit-meter";

/** Whether a token has any limit set (then its usage is worth fetching). */
export function hasLimits(token: Partial<Record<string, unknown>>): boolean {
  const values = limitValues(token);
  return LIMIT_FIELD_LIST.some((f) => values[f] > 0);
}

export function TokenLimitsCell({ token, usage }: { token: { id: number } & Partial<Record<string, unknown>>; usage: LimitUsage[] | undefined }) {
  const t = useTranslations("limits");
  if (!hasLimits(token)) return <span className="text-xs text-zinc-400 dark:text-zinc-500">{t("noneSet")}</span>;
  return <LimitMeters compact rows={metersOf(limitValues(token), usage, "token")} />;
}
