"use client";
// The user editor's notification section (root only): what the user chose (channel, address,
// threshold) and a button that sends them a test notification through it
// (POST /api/user/{id}/test_notification, docs/notifications.md). The answer, success or the
// reason it failed, is the toast.
import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useQuotaDisplay } from "@/components/layout/providers";
import { api } from "@/lib/client/api";
import { renderQuota } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";
import type { User } from "@/lib/client/user";

function summary(raw: string | undefined): { type: "email" | "webhook"; threshold: number | null; target: string } {
  let s: Record<string, unknown> = {};
  try {
    const v: unknown = raw ? JSON.parse(raw) : {};
    if (v && typeof v === "object") s = v as Record<string, unknown>;
  } catch {
    s = {};
  }
  const threshold = Number(s.quota_warning_threshold);
  const type = s.notify_type === "webhook" ? "webhook" : "email";
  const target = type === "webhook" ? String(s.webhook_url ?? "") : String(s.notification_email ?? "");
  return { type, threshold: Number.isFinite(threshold) && threshold > 0 ? threshold : null, target };
}

export function TestNotification({ user }: { user: User }) {
  const t = useTranslations("userEditor.notify");
  const format = useFormatter();
  const display = useQuotaDisplay();
  const [busy, setBusy] = useState(false);
  const s = summary(user.setting);
  const target = s.target || (s.type === "email" ? user.email : "") || t("none");

  async function send() {
    setBusy(true);
    try {
      const r = await api.post(`/api/user/${user.id}/test_notification`);
      toast.success(r.message ? { text: r.message } : { key: "userEditor.notify.sent" });
    } catch {
      // reported by the API helper: the reason it failed
    } finally {
      setBusy(false);
    }
  }

  return (
    <div>
      <h3 className="mb-1 text-sm font-medium text-zinc-700 dark:text-zinc-300">{t("title")}</h3>
      <dl className="mb-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
        <dt>{t("channel")}</dt>
        <dd data-testid="notify-channel">{s.type === "webhook" ? t("webhook") : t("email")}</dd>
        <dt>{t("target")}</dt>
        <dd className="break-all">{target}</dd>
        <dt>{t("threshold")}</dt>
        <dd>
          {s.threshold === null
            ? t("thresholdDefault")
            : `${format.number(s.threshold)} (${renderQuota(s.threshold, { ...display, displayInCurrency: true })})`}
        </dd>
      </dl>
      <Button variant="secondary" size="sm" onClick={send} disabled={busy}>
        {busy ? t("sending") : t("send")}
      </Button>
    </div>
  );
}
