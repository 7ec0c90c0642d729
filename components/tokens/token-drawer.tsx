"use client";
// The create/edit drawer of /app/tokens: name, batch count, quota (presets, unlimited),
// expiry (shortcuts), rate limit, model limits, allowed IPs, group. Checked by the server's
// rules (components/tokens/token-form.ts); the server checks everything again.
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import { Controller, FormProvider } from "react-hook-form";
import useSWR from "swr";
import { FormSelect, FormSwitch, FormText, FormTextarea, toastFirstError, useFormLocale, useRuleForm } from "@/components/forms";
import { useQuotaDisplay } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { Drawer } from "@/components/ui/dialog";
import { MultiSelect } from "@/components/ui/multi-select";
import { api } from "@/lib/client/api";
import { renderQuota } from "@/lib/client/format";
import { EXPIRY_SHORTCUTS, expiryFromShortcut, QUOTA_PER_DOLLAR, TOKEN_BATCH_PRESETS, TOKEN_QUOTA_PRESETS } from "@/lib/client/tokens";
import { toast } from "@/lib/client/toast";
import { blankTokenForm, tokenBody, tokenFormSchema, tokenToForm, type TokenForm } from "./token-form";
import type { Token } from "./types";

export function TokenDrawer({ token, open, onClose, onSaved }: { token: Token | null; open: boolean; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("tokens.form");
  const tt = useTranslations("tokens");
  const display = useQuotaDisplay();
  const locale = useFormLocale();
  const schema = useMemo(() => tokenFormSchema(locale, token ? token.expired_time : null), [locale, token]);
  const methods = useRuleForm<TokenForm>(schema, blankTokenForm());
  const { reset, watch, setValue, handleSubmit, control } = methods;
  const [busy, setBusy] = useState(false);
  const { data: groups } = useSWR<Record<string, { desc: string; ratio: number }>>(open ? "/api/user/self/groups" : null);
  const { data: models } = useSWR<string[]>(open ? "/api/user/models" : null);
  useEffect(() => {
    if (open) reset(token ? tokenToForm(token) : blankTokenForm());
  }, [open, token, reset]);
  const set = <K extends keyof TokenForm>(k: K, v: TokenForm[K]) => setValue(k, v as never, { shouldValidate: methods.formState.isSubmitted });
  const creating = token === null;
  const form = watch();

  async function save(values: TokenForm) {
    setBusy(true);
    try {
      if (creating) {
        const r = await api.post<Token[]>("/api/token/", tokenBody(values, null));
        toast.success({ key: "tokens.form.created", values: { count: r.data.length } });
      } else {
        await api.put("/api/token/", tokenBody(values, token));
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
          <Button disabled={busy} onClick={() => void handleSubmit(save, toastFirstError)()}>
            {t("submit")}
          </Button>
        </>
      }
    >
      <FormProvider {...methods}>
        <div className="flex flex-col gap-4">
          <FormText name="name" label={t("name")} required />
          {creating && (
            <div className="flex flex-col gap-2">
              <FormText name="count" label={t("count")} inputMode="numeric" hint={t("countHint")} />
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
            <FormSwitch name="unlimited_quota" label={t("unlimited")} />
            {!form.unlimited_quota && (
              <>
                <FormText
                  name="remain_quota"
                  label={t("quota")}
                  inputMode="numeric"
                  hint={
                    Number.isFinite(quotaNumber)
                      ? t("quotaHint", {
                          amount: renderQuota(quotaNumber, { displayInCurrency: true, quotaPerUnit: display.quotaPerUnit || QUOTA_PER_DOLLAR }),
                        })
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
            <FormText name="expiry" label={t("expiry")} placeholder="YYYY-MM-DD HH:mm:ss" hint={t("expiryHint")} />
            <div className="flex flex-wrap gap-1">
              {EXPIRY_SHORTCUTS.map((s) => (
                <Button key={s} size="sm" variant="secondary" onClick={() => set("expiry", expiryFromShortcut(s, Date.now()))}>
                  {t(`expiryShortcut.${s}`)}
                </Button>
              ))}
            </div>
          </div>

          <FormSelect name="group" label={t("group")}>
            <option value="">{t("groupDefault")}</option>
            {Object.entries(groups ?? {}).map(([g, v]) => (
              <option key={g} value={g}>
                {g} — {v.desc} ({t("ratio", { ratio: v.ratio })})
              </option>
            ))}
            {form.group && groups && !(form.group in groups) && <option value={form.group}>{form.group}</option>}
          </FormSelect>

          <div className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
            <FormSwitch name="rate_limit_enabled" label={t("rateLimit")} hint={t("rateLimitHint")} />
            {form.rate_limit_enabled && (
              <div className="grid grid-cols-3 gap-2">
                <FormText name="rate_limit_period" label={t("ratePeriod")} inputMode="numeric" />
                <FormText name="rate_limit_count" label={t("rateCount")} inputMode="numeric" />
                <FormText name="rate_limit_success" label={t("rateSuccess")} inputMode="numeric" />
              </div>
            )}
          </div>

          <div className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
            <FormSwitch name="model_limits_enabled" label={t("modelLimits")} hint={t("modelLimitsHint")} />
            {form.model_limits_enabled && (
              <Controller
                control={control}
                name="model_limits"
                render={({ field }) => (
                  <MultiSelect
                    label={t("chooseModels")}
                    options={[...new Set([...(models ?? []), ...field.value])].map((m) => ({ value: m, label: m }))}
                    value={field.value}
                    onChange={field.onChange}
                  />
                )}
              />
            )}
          </div>

          <FormTextarea name="allow_ips" label={t("allowIps")} rows={3} mono placeholder={"192.168.1.1\n10.0.0.0/8"} hint={t("allowIpsHint")} />
        </div>
      </FormProvider>
    </Drawer>
  );
}
