"use client";
// The create/edit drawer of /app/tokens: name, batch count, quota (presets, unlimited),
// expiry (shortcuts), rate limit, model limits, allowed IPs, group.
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import useSWR from "swr";
import { useQuotaDisplay } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { Drawer } from "@/components/ui/dialog";
import { Field, SelectField } from "@/components/ui/input";
import { MultiSelect } from "@/components/ui/multi-select";
import { Switch } from "@/components/ui/switch";
import { TextareaField } from "@/components/ui/textarea";
import { api } from "@/lib/client/api";
import { renderQuota } from "@/lib/client/format";
import { splitList } from "@/lib/channels/split-list";
import {
  DEFAULT_TOKEN_QUOTA,
  EXPIRY_SHORTCUTS,
  expiryFromShortcut,
  parseExpiry,
  QUOTA_PER_DOLLAR,
  RATE_LIMIT_DEFAULTS,
  toLocalInput,
  TOKEN_BATCH_PRESETS,
  TOKEN_QUOTA_PRESETS,
} from "@/lib/client/relay";
import { toast } from "@/lib/client/toast";
import type { Token } from "./types";

type Form = {
  name: string;
  count: string;
  remain_quota: string;
  unlimited_quota: boolean;
  expiry: string;
  rate_limit_enabled: boolean;
  rate_limit_period: string;
  rate_limit_count: string;
  rate_limit_success: string;
  model_limits_enabled: boolean;
  model_limits: string[];
  allow_ips: string;
  group: string;
};

const blank = (): Form => ({
  name: "",
  count: "1",
  remain_quota: String(DEFAULT_TOKEN_QUOTA),
  unlimited_quota: false,
  expiry: "",
  rate_limit_enabled: false,
  rate_limit_period: String(RATE_LIMIT_DEFAULTS.period),
  rate_limit_count: String(RATE_LIMIT_DEFAULTS.count),
  rate_limit_success: String(RATE_LIMIT_DEFAULTS.success),
  model_limits_enabled: false,
  model_limits: [],
  allow_ips: "",
  group: "",
});

function fromToken(tok: Token): Form {
  return {
    name: tok.name,
    count: "1",
    remain_quota: String(tok.remain_quota),
    unlimited_quota: tok.unlimited_quota,
    expiry: tok.expired_time === -1 ? "" : toLocalInput(tok.expired_time),
    rate_limit_enabled: tok.rate_limit_enabled,
    rate_limit_period: String(tok.rate_limit_period),
    rate_limit_count: String(tok.rate_limit_count),
    rate_limit_success: String(tok.rate_limit_success),
    model_limits_enabled: tok.model_limits_enabled,
    model_limits: splitList(tok.model_limits),
    allow_ips: tok.allow_ips,
    group: tok.group,
  };
}

export function TokenDrawer({ token, open, onClose, onSaved }: { token: Token | null; open: boolean; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("tokens.form");
  const tt = useTranslations("tokens");
  const display = useQuotaDisplay();
  const [form, setForm] = useState<Form>(blank);
  const [busy, setBusy] = useState(false);
  const { data: groups } = useSWR<Record<string, { desc: string; ratio: number }>>(open ? "/api/user/self/groups" : null);
  const { data: models } = useSWR<string[]>(open ? "/api/user/models" : null);
  useEffect(() => {
    if (open) setForm(token ? fromToken(token) : blank());
  }, [open, token]);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));
  const creating = token === null;

  async function save() {
    if (!form.name.trim()) {
      toast.error({ key: "tokens.form.nameRequired" });
      return;
    }
    const expired_time = parseExpiry(form.expiry);
    if (expired_time === null) {
      toast.error({ key: "tokens.form.expiryInvalid" });
      return;
    }
    const quota = Number(form.remain_quota);
    if (!form.unlimited_quota && (!Number.isInteger(quota) || quota < 0)) {
      toast.error({ key: "tokens.form.quotaInvalid" });
      return;
    }
    const count = Number(form.count);
    if (creating && (!Number.isInteger(count) || count < 1)) {
      toast.error({ key: "tokens.form.countInvalid" });
      return;
    }
    const body = {
      name: form.name.trim(),
      remain_quota: form.unlimited_quota ? 0 : quota,
      unlimited_quota: form.unlimited_quota,
      expired_time,
      rate_limit_enabled: form.rate_limit_enabled,
      rate_limit_period: Number(form.rate_limit_period),
      rate_limit_count: Number(form.rate_limit_count),
      rate_limit_success: Number(form.rate_limit_success),
      model_limits_enabled: form.model_limits_enabled,
      model_limits: form.model_limits.join(","),
      allow_ips: form.allow_ips,
      group: form.group,
    };
    setBusy(true);
    try {
      if (creating) {
        const r = await api.post<Token[]>("/api/token/", { ...body, count });
        toast.success({ key: "tokens.form.created", values: { count: r.data.length } });
      } else {
        // The stored expiry is sent back only when it was changed: a token whose expiry has
        // passed stays editable (the server refuses a new expiry in the past).
        const edit: Partial<typeof body> & { id: number } = { ...body, id: token.id };
        if (expired_time === token.expired_time) delete edit.expired_time;
        await api.put("/api/token/", edit);
        toast.success({ key: "tokens.form.saved" });
      }
      onSaved();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  const quotaNumber = Number(form.remain_quota);
  return (
    <Drawer
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={creating ? t("createTitle") : t("editTitle")}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {tt("cancel")}
          </Button>
          <Button disabled={busy} onClick={() => void save()}>
            {t("submit")}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        <Field label={t("name")} required value={form.name} onChange={(e) => set("name", e.target.value)} />
        {creating && (
          <div className="flex flex-col gap-2">
            <Field label={t("count")} inputMode="numeric" value={form.count} onChange={(e) => set("count", e.target.value)} hint={t("countHint")} />
            <div className="flex flex-wrap gap-1">
              {TOKEN_BATCH_PRESETS.map((n) => (
                <Button key={n} size="sm" variant={form.count === String(n) ? "primary" : "secondary"} onClick={() => set("count", String(n))}>
                  {n}
                </Button>
              ))}
            </div>
          </div>
        )}

        <div className="flex flex-col gap-2">
          <Switch checked={form.unlimited_quota} onChange={(v) => set("unlimited_quota", v)} label={t("unlimited")} />
          {!form.unlimited_quota && (
            <>
              <Field
                label={t("quota")}
                inputMode="numeric"
                value={form.remain_quota}
                onChange={(e) => set("remain_quota", e.target.value)}
                hint={
                  Number.isFinite(quotaNumber)
                    ? t("quotaHint", { amount: renderQuota(quotaNumber, { displayInCurrency: true, quotaPerUnit: display.quotaPerUnit || QUOTA_PER_DOLLAR }) })
                    : undefined
                }
              />
              <div className="flex flex-wrap gap-1">
                {TOKEN_QUOTA_PRESETS.map((usd) => (
                  <Button
                    key={usd}
                    size="sm"
                    variant={form.remain_quota === String(usd * QUOTA_PER_DOLLAR) ? "primary" : "secondary"}
                    onClick={() => set("remain_quota", String(usd * QUOTA_PER_DOLLAR))}
                  >
                    ${usd}
                  </Button>
                ))}
              </div>
            </>
          )}
        </div>

        <div className="flex flex-col gap-2">
          <Field
            label={t("expiry")}
            placeholder="YYYY-MM-DD HH:mm:ss"
            value={form.expiry}
            onChange={(e) => set("expiry", e.target.value)}
            hint={t("expiryHint")}
          />
          <div className="flex flex-wrap gap-1">
            {EXPIRY_SHORTCUTS.map((s) => (
              <Button key={s} size="sm" variant="secondary" onClick={() => set("expiry", expiryFromShortcut(s, Date.now()))}>
                {t(`expiryShortcut.${s}`)}
              </Button>
            ))}
          </div>
        </div>

        <SelectField label={t("group")} value={form.group} onChange={(e) => set("group", e.target.value)}>
          <option value="">{t("groupDefault")}</option>
          {Object.entries(groups ?? {}).map(([g, v]) => (
            <option key={g} value={g}>
              {g} — {v.desc} ({t("ratio", { ratio: v.ratio })})
            </option>
          ))}
          {form.group && groups && !(form.group in groups) && <option value={form.group}>{form.group}</option>}
        </SelectField>

        <div className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
          <Switch checked={form.rate_limit_enabled} onChange={(v) => set("rate_limit_enabled", v)} label={t("rateLimit")} hint={t("rateLimitHint")} />
          {form.rate_limit_enabled && (
            <div className="grid grid-cols-3 gap-2">
              <Field label={t("ratePeriod")} inputMode="numeric" value={form.rate_limit_period} onChange={(e) => set("rate_limit_period", e.target.value)} />
              <Field label={t("rateCount")} inputMode="numeric" value={form.rate_limit_count} onChange={(e) => set("rate_limit_count", e.target.value)} />
              <Field label={t("rateSuccess")} inputMode="numeric" value={form.rate_limit_success} onChange={(e) => set("rate_limit_success", e.target.value)} />
            </div>
          )}
        </div>

        <div className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
          <Switch checked={form.model_limits_enabled} onChange={(v) => set("model_limits_enabled", v)} label={t("modelLimits")} hint={t("modelLimitsHint")} />
          {form.model_limits_enabled && (
            <MultiSelect
              label={t("chooseModels")}
              options={[...new Set([...(models ?? []), ...form.model_limits])].map((m) => ({ value: m, label: m }))}
              value={form.model_limits}
              onChange={(v) => set("model_limits", v)}
            />
          )}
        </div>

        <TextareaField
          label={t("allowIps")}
          rows={3}
          placeholder={"192.168.1.1\n10.0.0.0/8"}
          value={form.allow_ips}
          onChange={(e) => set("allow_ips", e.target.value)}
          hint={t("allowIpsHint")}
        />
      </div>
    </Drawer>
  );
}
