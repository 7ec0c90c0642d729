"use client";
// The create/edit drawer of /app/tokens: name, batch count, quota (presets, unlimited),
// expiry (shortcuts), rate limit, the limits with the meters of what the token uses now
// (docs/console-ui.md, "Limits"), model limits, allowed IPs, group. Checked by the server's
// rules (components/tokens/token-form.ts); the server checks everything again.
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import { Controller, FormProvider } from "react-hook-form";
import useSWR from "swr";
import { FormDateTime, FormQuota, FormSelect, FormSwitch, FormText, FormTextarea, toastFirstError, useRuleForm } from "@/components/forms";
import { useQuotaDisplay } from "@/components/layout/providers";
import { LimitFields } from "@/components/limits/limit-fields";
import { LimitMeters } from "@/components/limits/limit-meter";
import { limitUsagePath, useLimitUsage } from "@/components/limits/use-limit-usage";
import { Button } from "@/components/ui/button";
import { Drawer } from "@/components/ui/dialog";
import { MultiSelect } from "@/components/ui/multi-select";
import { useGroupDescription } from "@/lib/client/group-description";
import { api } from "@/lib/client/api";
import { renderQuota } from "@/lib/client/format";
import { limitValues, metersOf } from "@/lib/client/limits";
import { EXPIRY_SHORTCUTS, expiryFromShortcut, TOKEN_BATCH_PRESETS, TOKEN_QUOTA_PRESETS } from "@/lib/client/tokens";
import { toast } from "@/lib/client/toast";
import { blankTokenForm, tokenBody, tokenFormSchema, tokenToForm, type TokenForm } from "./token-form";
import type { Token } from "./types";
import { useServerCatalogue } from "@/lib/i18n/client-catalogue";

export function TokenDrawer({ token, open, onClose, onSaved }: { token: Token | null; open: boolean; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("tokens.form");
  const tt = useTranslations("tokens");
  const display = useQuotaDisplay();
  const catalogue = useServerCatalogue();
  const tl = useTranslations("limits");
  const schema = useMemo(() => tokenFormSchema(catalogue, token ? token.expired_time : null, undefined, display), [catalogue, token, display]);
  const methods = useRuleForm<TokenForm>(schema, blankTokenForm());
  const { reset, watch, setValue, handleSubmit, control } = methods;
  const [busy, setBusy] = useState(false);
  const { data: groups } = useSWR<Record<string, { desc: string; ratio: number }>>(open ? "/api/user/self/groups" : null);
  const groupDescription = useGroupDescription();
  const { data: models } = useSWR<string[]>(open ? "/api/user/models" : null);
  const { data: usage } = useLimitUsage(open && token ? limitUsagePath({ token_id: token.id }) : null);
  useEffect(() => {
    if (open) reset(token ? tokenToForm(token, display) : blankTokenForm());
    // the display is read when the drawer opens; a status refresh must not reset what is typed
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, token, reset]);
  const set = <K extends keyof TokenForm>(k: K, v: TokenForm[K]) => setValue(k, v as never, { shouldValidate: methods.formState.isSubmitted });
  const creating = token === null;
  const form = watch();

  async function save(values: TokenForm) {
    setBusy(true);
    try {
      if (creating) {
        const r = await api.post<Token[]>("/api/token/", tokenBody(values, null, display));
        toast.success({ key: "tokens.form.created", values: { count: r.data.length } });
      } else {
        await api.put("/api/token/", tokenBody(values, token, display));
        toast.success({ key: "tokens.form.saved" });
      }
      onSaved();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

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
                <FormQuota name="remain_quota" label={t("quota")} />
                <div className="flex flex-wrap gap-1">
                  {TOKEN_QUOTA_PRESETS.map((usd) => {
                    // the presets are dollars, in units at the site's QuotaPerUnit, shown by the one rule
                    const units = String(Math.round(usd * display.quotaPerUnit));
                    return (
                      <Button key={usd} size="sm" variant={form.remain_quota === units ? "primary" : "secondary"} onClick={() => set("remain_quota", units)}>
                        {renderQuota(units, display)}
                      </Button>
                    );
                  })}
                </div>
              </>
            )}
          </div>

          <div className="flex flex-col gap-2">
            <FormDateTime name="expiry" label={t("expiry")} placeholder={t("expiryShortcut.never")} />
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
                {g} — {groupDescription(g, v.desc)} ({t("ratio", { ratio: v.ratio })})
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

          <LimitFields>
            {token && (
              <div className="flex flex-col gap-2 border-t border-zinc-200 pt-3 dark:border-zinc-800" data-testid="token-drawer-meters">
                <span className="text-xs font-medium text-zinc-600 dark:text-zinc-400">{tl("current")}</span>
                <LimitMeters
                  rows={metersOf(limitValues(token), usage, "token")}
                  empty={<span className="text-xs text-zinc-500 dark:text-zinc-400">{tl("noneSet")}</span>}
                />
              </div>
            )}
          </LimitFields>

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
