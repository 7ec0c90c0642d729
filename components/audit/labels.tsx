"use client";
// The audit log's words in the reader's language (the "audit" namespace of the catalogues):
// an action, a target type, a refused sign-in's reason; a row's other details as key=value.
import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import type { BadgeColor } from "@/lib/client/badge-color";
import type { AuditRow } from "./types";

export type AuditT = ReturnType<typeof useTranslations<"audit">>;

function known(t: AuditT, key: string, fallback: string): string {
  const k = key as Parameters<AuditT>[0];
  return t.has(k) ? t(k) : fallback;
}

export const actionLabel = (t: AuditT, action: string) => known(t, `actions.${action}`, action);
export const targetLabel = (t: AuditT, type: string) => known(t, `targets.${type}`, type);
export const reasonLabel = (t: AuditT, reason: string) => known(t, `reasons.${reason}`, reason);

const ACTION_COLOR: Record<string, BadgeColor> = {
  login: "green",
  register: "green",
  login_failed: "red",
  user_disable: "red",
  user_delete: "red",
  twofa_disable: "yellow",
  twofa_reset: "yellow",
  passkey_remove: "yellow",
  session_revoke: "yellow",
  token_key_reveal: "yellow",
  option_change: "blue",
  role_change: "blue",
  quota_change: "blue",
};

export function ActionBadge({ t, action }: { t: AuditT; action: string }) {
  return <Badge color={ACTION_COLOR[action] ?? "gray"}>{actionLabel(t, action)}</Badge>;
}

const show = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

/** A row's details in one line: a refused sign-in's reason in words, the rest as key=value. */
export function detailText(t: AuditT, row: Pick<AuditRow, "detail">): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(row.detail)) {
    if (k === "reason" && typeof v === "string") parts.push(t("security.reason", { reason: reasonLabel(t, v) }));
    else parts.push(`${k}=${show(v)}`);
  }
  return parts.join(" · ");
}
