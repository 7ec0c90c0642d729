"use client";
import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";
import { QuotaInput } from "@/components/forms/quota-input";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/input";
import { RadioGroup } from "@/components/ui/radio-group";
import { Switch } from "@/components/ui/switch";
import { Tabs } from "@/components/ui/tabs";
import { useQuotaDisplay } from "@/components/layout/providers";
import { api } from "@/lib/client/api";
import { renderQuota } from "@/lib/client/format";
import { parseSettings, secretIsSet, settingsChanged, settingsPayload, THRESHOLD_PRESETS, type NotifyType, type UserSettings } from "@/lib/client/settings";
import { toast } from "@/lib/client/toast";
import type { User } from "@/lib/client/user";
import { firstRefusal } from "@/components/forms";
import { say, type ServerCatalogue } from "@/lib/i18n/render";
import { settingBody, webhookRefusal } from "@/lib/users/field-rules";
import { useServerCatalogue } from "@/lib/i18n/client-catalogue";

type Edit = <K extends keyof UserSettings>(key: K, value: UserSettings[K]) => void;

// The server's rules of PUT /api/user/setting (lib/users/field-rules.ts), with its messages.
function check(s: UserSettings, catalogue: ServerCatalogue): string | null {
  const payload = settingsPayload(s);
  const refused = firstRefusal(settingBody, payload, catalogue);
  if (refused) return refused;
  const webhook = webhookRefusal(s.notify_type, s.webhook_url.trim());
  return webhook ? say(catalogue, webhook) : null;
}

function NotificationTab({ s, edit, secretSet }: { s: UserSettings; edit: Edit; secretSet: boolean }) {
  const t = useTranslations("me.settings");
  const format = useFormatter();
  const display = useQuotaDisplay();
  const thresholdId = useId();
  // the units as typed (text that is not an amount stays as typed; the setting gets NaN, refused)
  const [threshold, setThreshold] = useState(String(s.quota_warning_threshold));
  useEffect(() => {
    if (Number.isFinite(s.quota_warning_threshold)) setThreshold(String(s.quota_warning_threshold));
  }, [s.quota_warning_threshold]);
  return (
    <div className="flex flex-col gap-4">
      <RadioGroup<NotifyType>
        legend={t("notifyType")}
        value={s.notify_type}
        onChange={(v) => edit("notify_type", v)}
        options={[
          { value: "email", label: t("notifyEmail") },
          { value: "webhook", label: t("notifyWebhook") },
        ]}
      />
      <div className="flex flex-col gap-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={thresholdId} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
            {t("threshold")}
          </label>
          <QuotaInput
            id={thresholdId}
            value={threshold}
            onChange={(units: string) => {
              setThreshold(units);
              edit("quota_warning_threshold", /^\d+$/.test(units) ? Number(units) : NaN);
            }}
          />
          <p className="text-xs text-zinc-500 dark:text-zinc-400">{t("thresholdHint")}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {THRESHOLD_PRESETS.map((p) => (
            <Button key={p} size="sm" variant={s.quota_warning_threshold === p ? "primary" : "secondary"} onClick={() => edit("quota_warning_threshold", p)}>
              {format.number(p)} ({renderQuota(p, { ...display, displayInCurrency: true }, 1)})
            </Button>
          ))}
        </div>
      </div>
      {s.notify_type === "email" ? (
        <Field
          label={t("notificationEmail")}
          type="email"
          value={s.notification_email}
          onChange={(e) => edit("notification_email", e.target.value)}
          hint={t("notificationEmailHint")}
        />
      ) : (
        <>
          <Field
            label={t("webhookUrl")}
            type="url"
            value={s.webhook_url}
            onChange={(e) => edit("webhook_url", e.target.value)}
            placeholder="https://"
            hint={t("webhookUrlHint")}
          />
          <Field
            label={t("webhookSecret")}
            type="password"
            value={s.webhook_secret}
            onChange={(e) => edit("webhook_secret", e.target.value)}
            placeholder={secretSet ? t("webhookSecretSet") : ""}
            hint={t("webhookSecretHint")}
            autoComplete="off"
          />
        </>
      )}
    </div>
  );
}

export function SettingsCard({ user, onSaved }: { user: User; onSaved: () => void }) {
  const t = useTranslations("me.settings");
  const [saved, setSaved] = useState(() => parseSettings(user.setting));
  const [s, setS] = useState(saved);
  const [busy, setBusy] = useState(false);
  const catalogue = useServerCatalogue();
  useEffect(() => {
    const fresh = parseSettings(user.setting);
    setSaved(fresh);
    setS(fresh);
  }, [user.setting]);
  const edit: Edit = (key, value) => setS((prev) => ({ ...prev, [key]: value }));

  async function save() {
    if (!settingsChanged(saved, s)) {
      toast.info({ key: "me.settings.nothingChanged" });
      return;
    }
    const invalid = check(s, catalogue);
    if (invalid) return void toast.error({ key: "errors.prefixed", values: { message: invalid } });
    setBusy(true);
    try {
      const r = await api.put("/api/user/setting", settingsPayload(s), { failed: "me.settings.updateFailed" });
      toast.success(r.message ? { text: r.message } : { key: "me.settings.saved" });
      setSaved(s);
      onSaved();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title={t("title")}>
      <Tabs
        items={[
          { value: "notify", label: t("tabNotify"), content: <NotificationTab s={s} edit={edit} secretSet={secretIsSet(user.setting)} /> },
          {
            value: "price",
            label: t("tabPrice"),
            content: (
              <Switch
                checked={s.accept_unset_model_ratio_model}
                onChange={(v) => edit("accept_unset_model_ratio_model", v)}
                label={t("acceptUnset")}
                hint={t("acceptUnsetHint")}
              />
            ),
          },
          {
            value: "other",
            label: t("tabOther"),
            content: <Switch checked={s.show_ip_in_logs} onChange={(v) => edit("show_ip_in_logs", v)} label={t("showIp")} hint={t("showIpHint")} />,
          },
        ]}
      />
      <div className="mt-5 flex justify-end">
        <Button onClick={save} disabled={busy}>
          {t("save")}
        </Button>
      </div>
    </Card>
  );
}
