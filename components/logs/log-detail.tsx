"use client";
// The usage log's detail row (its other data) and the read-only user card opened from a username.
import { useTranslations } from "next-intl";
import { Fragment } from "react";
import useSWR from "swr";
import { useQuotaDisplay } from "@/components/layout/providers";
import { Dialog } from "@/components/ui/dialog";
import { renderQuota } from "@/lib/client/format";
import { parseOther } from "@/lib/client/logs";
import type { User } from "@/lib/client/user";
import { logContentText } from "./log-content";
import type { Log } from "./types";

export function LogDetail({ log, admin }: { log: Log; admin: boolean }) {
  const t = useTranslations("logs.detail");
  const logs = useTranslations("logs");
  const display = useQuotaDisplay();
  const other = parseOther(log.other);
  const entries: [string, unknown][] = [];
  const add = (label: string, v: unknown) => {
    if (v !== undefined && v !== null && v !== "") entries.push([label, typeof v === "object" ? JSON.stringify(v) : v]);
  };
  add(t("modelRatio"), other.model_ratio);
  // model_price -1 is "no fixed price": the call was priced by the ratios above and below
  add(t("modelPrice"), Number(other.model_price) < 0 ? undefined : other.model_price);
  add(t("completionRatio"), other.completion_ratio);
  add(t("groupRatio"), other.group_ratio);
  add(t("userGroupRatio"), other.user_group_ratio);
  add(t("cacheTokens"), other.cache_tokens);
  add(t("cacheRatio"), other.cache_ratio);
  add(t("cacheCreationTokens"), other.cache_creation_tokens);
  add(t("cacheCreationRatio"), other.cache_creation_ratio);
  // the writes by lifetime, each at its own ratio (docs/pricing.md, "Prompt-cache writes")
  add(t("cacheCreationTokens5m"), other.cache_creation_tokens_5m);
  add(t("cacheCreationRatio5m"), other.cache_creation_ratio_5m);
  add(t("cacheCreationTokens1h"), other.cache_creation_tokens_1h);
  add(t("cacheCreationRatio1h"), other.cache_creation_ratio_1h);
  add(t("audioInput"), other.audio_input);
  add(t("audioOutput"), other.audio_output);
  add(t("audioRatio"), other.audio_ratio);
  add(t("audioSeconds"), other.audio_seconds);
  // the upstream reported more than the call could have used: the bound was billed (docs/channels-tokens-billing.md)
  add(t("usageBounded"), other.usage_bounded === true ? t("usageBoundedText") : undefined);
  if (other.is_model_mapped) add(t("upstreamModel"), other.upstream_model_name);
  add(t("virtualModel"), other.virtual_model);
  add(t("billedModel"), other.billed_model);
  add(t("frt"), typeof other.frt === "number" ? `${(other.frt / 1000).toFixed(2)}s` : undefined);
  add(t("reasoningEffort"), other.reasoning_effort);
  add(t("errorType"), other.error_type);
  add(t("errorCode"), other.error_code);
  add(t("statusCode"), other.status_code);
  if (admin) add(t("adminInfo"), other.admin_info);
  add(t("requestId"), log.request_id);
  add(t("content"), logContentText(log, logs, display));
  add(t("systemPrompt"), other.system_prompt);
  // LogChatContentEnabled's context: [{role, content}], one line per message (docs/relay-options.md)
  add(
    t("context"),
    Array.isArray(other.context)
      ? other.context.map((m: { role?: unknown; content?: unknown }) => `${String(m?.role)}: ${String(m?.content)}`).join("\n")
      : other.context,
  );
  add(t("input"), other.input_content);
  add(t("output"), other.output_content);
  return (
    <dl className="grid gap-x-6 gap-y-1 text-xs sm:grid-cols-[auto_1fr]" data-testid={`log-detail-${log.id}`}>
      {entries.length === 0 && <span className="text-zinc-500">{t("none")}</span>}
      {entries.map(([k, v]) => (
        <Fragment key={k}>
          <dt className="font-medium text-zinc-500">{k}</dt>
          <dd className="break-all whitespace-pre-wrap">{String(v)}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

export function UserInfoDialog({ userId, onClose }: { userId: number | null; onClose: () => void }) {
  const t = useTranslations("logs.userInfo");
  const display = useQuotaDisplay();
  // The read-only card (any level); the editor's GET /api/user/{id} refuses equal or higher levels.
  const { data } = useSWR<User>(userId ? `/api/user/${userId}/info` : null);
  return (
    <Dialog open={userId !== null} onOpenChange={(o) => !o && onClose()} title={t("title")}>
      {data ? (
        <dl className="grid grid-cols-2 gap-2 text-sm">
          <dt className="text-zinc-500">{t("username")}</dt>
          <dd>{data.username}</dd>
          <dt className="text-zinc-500">{t("quota")}</dt>
          <dd>{renderQuota(data.quota, display)}</dd>
          <dt className="text-zinc-500">{t("used")}</dt>
          <dd>{renderQuota(data.used_quota, display)}</dd>
          <dt className="text-zinc-500">{t("requests")}</dt>
          <dd>{data.request_count}</dd>
        </dl>
      ) : (
        <p className="text-sm text-zinc-500">{t("loading")}</p>
      )}
    </Dialog>
  );
}
