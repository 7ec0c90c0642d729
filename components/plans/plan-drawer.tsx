"use client";
// The create/edit drawer of /admin/plans (docs/console-ui.md, "Plans"): name, description,
// price and currency, duration (day, week, month presets or a number of days), quota in the
// console's display unit (converted exactly to units, the units shown under it), how the quota
// renews, the groups while active and on expiry (the site's groups), the models (searchable,
// none = all of the group), purchases per user, and the switches. Checked by the server's
// rules (components/plans/plan-form.ts); the server checks everything again.
import { ModelChecklist as Checklist } from "@/components/forms/model-checklist";
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import { Controller, FormProvider } from "react-hook-form";
import useSWR from "swr";
import { FormSelect, FormSwitch, FormText, FormTextarea, toastFirstError, useRuleForm } from "@/components/forms";
import { useQuotaDisplay } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { Drawer } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { api } from "@/lib/client/api";
import { pickerModels } from "@/lib/client/model-mapping";
import { toast } from "@/lib/client/toast";
import { ADMIN_PLANS } from "./paths";
import { blankPlanForm, DURATION_PRESETS, PLAN_CURRENCIES, planBody, planFormSchema, planToForm, quotaUnitsFromText, type PlanForm } from "./plan-form";
import { RESET_PERIODS, type Plan } from "./types";
import { useServerCatalogue } from "@/lib/i18n/client-catalogue";

function ModelChecklist({ chosen, onChange }: { chosen: string[]; onChange: (m: string[]) => void }) {
  const t = useTranslations("plans.form");
  const { data } = useSWR<Record<string, string[]>>("/api/models");
  const [q, setQ] = useState("");
  const all = useMemo(() => [...new Set([...pickerModels(data), ...chosen])], [data, chosen]);
  const shown = all.filter((m) => m.toLowerCase().includes(q.trim().toLowerCase()));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-zinc-700 dark:text-zinc-300">{t("models")}</legend>
      <div className="flex items-center gap-2">
        <Input aria-label={t("modelSearch")} placeholder={t("modelSearch")} value={q} onChange={(e) => setQ(e.target.value)} className="flex-1" />
        {chosen.length > 0 && (
          <Button size="sm" variant="ghost" onClick={() => onChange([])}>
            {t("modelsClear")}
          </Button>
        )}
      </div>
      <Checklist
        shown={shown}
        chosen={chosen}
        onChange={onChange}
        empty={t("modelsNone")}
        className="max-h-48 overflow-y-auto rounded-md border border-zinc-200 p-1 dark:border-zinc-800"
        testId="plan-models"
      />
      <p className="text-xs text-zinc-500 dark:text-zinc-400">{chosen.length === 0 ? t("modelsAll") : t("modelsChosen", { count: chosen.length })}</p>
    </fieldset>
  );
}

export function PlanDrawer({ plan, open, onClose, onSaved }: { plan: Plan | null; open: boolean; onClose: () => void; onSaved: () => void }) {
  const t = useTranslations("plans.form");
  const tp = useTranslations("plans");
  const catalogue = useServerCatalogue();
  const { data: groups } = useSWR<string[]>(open ? "/api/group/" : null);
  // useQuotaDisplay answers a new object each render: the form depends on its two values
  const { displayInCurrency, quotaPerUnit, currency, rate, symbol } = useQuotaDisplay();
  const display = useMemo(() => ({ displayInCurrency, quotaPerUnit, currency, rate, symbol }), [displayInCurrency, quotaPerUnit, currency, rate, symbol]);
  const schema = useMemo(() => planFormSchema(catalogue, display, t("quotaInvalid")), [catalogue, display, t]);
  const methods = useRuleForm<PlanForm>(schema, blankPlanForm());
  const { reset, watch, setValue, handleSubmit, control, formState } = methods;
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) reset(plan ? planToForm(plan, display) : blankPlanForm());
  }, [open, plan, reset, display]);
  const creating = plan === null;
  const form = watch();
  const units = quotaUnitsFromText(form.quota, display);

  async function save(values: PlanForm) {
    setBusy(true);
    try {
      const body = planBody(values, display, plan);
      if (creating) await api.post(ADMIN_PLANS, body);
      else await api.put(ADMIN_PLANS, body);
      toast.success({ key: creating ? "plans.form.created" : "plans.form.saved", values: { name: body.name } });
      onSaved();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  const groupOptions = (keep: string) => [...new Set([...(groups ?? []), ...(keep ? [keep] : [])])];
  return (
    <Drawer
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={plan === null ? t("createTitle") : t("editTitle", { name: plan.name })}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {tp("cancel")}
          </Button>
          <Button disabled={busy} onClick={() => void handleSubmit(save, toastFirstError)()}>
            {t("submit")}
          </Button>
        </>
      }
    >
      <FormProvider {...methods}>
        <div className="flex flex-col gap-4" data-testid="plan-form">
          <FormText name="name" label={t("name")} maxLength={64} />
          <FormTextarea name="description" label={t("description")} rows={2} hint={t("descriptionHint")} />
          <div className="grid grid-cols-[1fr_auto] gap-3">
            <FormText name="price" label={t("price")} inputMode="decimal" hint={t("priceHint")} />
            <FormSelect name="currency" label={t("currency")}>
              {PLAN_CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </FormSelect>
          </div>
          <div className="flex flex-col gap-2">
            <FormText name="duration_days" label={t("duration")} inputMode="numeric" hint={t("durationHint")} />
            <div className="flex flex-wrap gap-1" role="group" aria-label={t("durationPresets")}>
              {DURATION_PRESETS.map((d) => (
                <Button
                  key={d.key}
                  size="sm"
                  variant={form.duration_days.trim() === String(d.days) ? "primary" : "secondary"}
                  onClick={() => setValue("duration_days", String(d.days), { shouldValidate: formState.isSubmitted })}
                >
                  {tp(`duration.${d.key}`)}
                </Button>
              ))}
            </div>
          </div>
          <FormText
            name="quota"
            label={
              display.displayInCurrency
                ? t("quotaMoney", { unit: display.currency === "CUSTOM" ? (display.symbol ?? "") : (display.currency ?? "USD") })
                : t("quotaUnits")
            }
            inputMode="decimal"
            hint={units === null ? t("quotaHint") : t("quotaIs", { units: units.toString() })}
          />
          <FormSelect name="reset_period" label={t("resetPeriod")} hint={t("resetHint")}>
            {RESET_PERIODS.map((r) => (
              <option key={r} value={r}>
                {tp(`reset.${r}`)}
              </option>
            ))}
          </FormSelect>
          <div className="grid gap-3 sm:grid-cols-2">
            <FormSelect name="upgrade_group" label={t("upgradeGroup")} hint={t("upgradeGroupHint")}>
              <option value="">{tp("noGroupChange")}</option>
              {groupOptions(form.upgrade_group).map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </FormSelect>
            <FormSelect name="expiry_group" label={t("expiryGroup")} hint={t("expiryGroupHint")}>
              <option value="">{tp("noGroupChange")}</option>
              {groupOptions(form.expiry_group).map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </FormSelect>
          </div>
          <Controller control={control} name="models" render={({ field }) => <ModelChecklist chosen={field.value} onChange={field.onChange} />} />
          <FormText name="max_per_user" label={t("maxPerUser")} inputMode="numeric" hint={t("maxPerUserHint")} />
          <FormText name="stripe_price_id" label={t("stripePriceId")} hint={t("stripePriceIdHint")} autoComplete="off" />
          <div className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
            <FormSwitch name="wallet_purchasable" label={t("walletPurchasable")} hint={t("walletPurchasableHint")} />
            <FormSwitch name="carry_over" label={t("carryOver")} hint={t("carryOverHint")} />
            <FormSwitch name="enabled" label={t("enabled")} hint={t("enabledHint")} />
          </div>
        </div>
      </FormProvider>
    </Drawer>
  );
}
