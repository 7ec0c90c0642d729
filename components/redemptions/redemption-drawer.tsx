"use client";
// The create/edit drawer of /admin/coupons: name, quota (presets), count and an optional code
// of one's own (create only), gift code with max uses, validity window. Checked by the
// server's rules (components/redemptions/redemption-form.ts); the server checks everything again.
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import { Controller, FormProvider } from "react-hook-form";
import { FormQuota, FormSwitch, FormText, toastFirstError, useRuleForm } from "@/components/forms";
import { useQuotaDisplay } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { DateTimeField, UnixTimePicker } from "@/components/ui/date-time-picker";
import { Drawer } from "@/components/ui/dialog";
import { api } from "@/lib/client/api";
import { renderQuota } from "@/lib/client/format";
import { TOKEN_QUOTA_PRESETS } from "@/lib/client/tokens";
import { toast } from "@/lib/client/toast";
import { defaultRedemptionName, REDEMPTION_BATCH_MAX } from "@/lib/redemptions/field-rules";
import { blankRedemptionForm, redemptionBody, redemptionFormSchema, redemptionToForm, type RedemptionForm } from "./redemption-form";
import type { Redemption } from "./types";
import { useServerCatalogue } from "@/lib/i18n/client-catalogue";

export function RedemptionDrawer({
  redemption,
  open,
  onClose,
  onCreated,
  onSaved,
}: {
  redemption: Redemption | null;
  open: boolean;
  onClose: () => void;
  onCreated: (keys: string[]) => void;
  onSaved: () => void;
}) {
  const t = useTranslations("redemptions.form");
  const tc = useTranslations("redemptions");
  const display = useQuotaDisplay();
  const catalogue = useServerCatalogue();
  const schema = useMemo(() => redemptionFormSchema(catalogue, redemption), [catalogue, redemption]);
  const methods = useRuleForm<RedemptionForm>(schema, blankRedemptionForm());
  const { reset, watch, setValue, handleSubmit, control, formState } = methods;
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) reset(redemption ? redemptionToForm(redemption) : blankRedemptionForm());
  }, [open, redemption, reset]);
  const creating = redemption === null;
  const form = watch();
  const quotaNumber = Number(form.quota);

  async function save(values: RedemptionForm) {
    setBusy(true);
    try {
      if (creating) {
        const r = await api.post<string[]>("/api/redemption/", redemptionBody(values, null));
        toast.success({ key: "redemptions.form.created", values: { count: r.data.length } });
        onCreated(r.data);
      } else {
        await api.put("/api/redemption/", redemptionBody(values, redemption));
        toast.success({ key: "redemptions.form.saved" });
        onSaved();
      }
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  const rangeError = formState.errors.valid_until?.message;
  return (
    <Drawer
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={creating ? t("createTitle") : t("editTitle")}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {tc("cancel")}
          </Button>
          <Button disabled={busy} onClick={() => void handleSubmit(save, toastFirstError)()}>
            {t("submit")}
          </Button>
        </>
      }
    >
      <FormProvider {...methods}>
        <div className="flex flex-col gap-4" data-testid="redemption-form">
          <FormText
            name="name"
            label={t("name")}
            maxLength={40}
            hint={
              creating && Number.isFinite(quotaNumber) && quotaNumber > 0
                ? t("nameHint", { name: defaultRedemptionName(quotaNumber, display) })
                : t("nameLength")
            }
          />
          <div className="flex flex-col gap-2">
            <FormQuota name="quota" label={t("quota")} />
            <div className="flex flex-wrap gap-1">
              {TOKEN_QUOTA_PRESETS.map((usd) => {
                // the presets are dollars, in units at the site's QuotaPerUnit, shown by the one rule
                const units = String(Math.round(usd * display.quotaPerUnit));
                return (
                  <Button
                    key={usd}
                    size="sm"
                    variant={form.quota === units ? "primary" : "secondary"}
                    onClick={() => setValue("quota", units, { shouldValidate: formState.isSubmitted })}
                  >
                    {renderQuota(units, display)}
                  </Button>
                );
              })}
            </div>
          </div>
          {creating && (
            <>
              <FormText name="count" label={t("count")} inputMode="numeric" hint={t("countHint", { max: REDEMPTION_BATCH_MAX })} />
              <FormText name="key" label={t("key")} hint={t("keyHint")} autoComplete="off" />
            </>
          )}
          <div className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
            <FormSwitch name="is_gift" label={t("gift")} hint={creating ? t("giftHint") : t("giftFixed")} disabled={!creating} />
            {form.is_gift && <FormText name="max_uses" label={t("maxUses")} inputMode="numeric" hint={t("maxUsesHint")} />}
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <Controller
              control={control}
              name="valid_from"
              render={({ field }) => (
                <DateTimeField label={t("validFrom")}>
                  {(id) => <UnixTimePicker id={id} label={t("validFrom")} placeholder={t("noBound")} value={field.value} onChange={field.onChange} />}
                </DateTimeField>
              )}
            />
            <Controller
              control={control}
              name="valid_until"
              render={({ field }) => (
                <DateTimeField label={t("validUntil")}>
                  {(id) => <UnixTimePicker id={id} label={t("validUntil")} placeholder={t("noBound")} value={field.value} onChange={field.onChange} />}
                </DateTimeField>
              )}
            />
          </div>
          {rangeError ? (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {rangeError}
            </p>
          ) : (
            <p className="text-xs text-zinc-500">{t("validHint")}</p>
          )}
        </div>
      </FormProvider>
    </Drawer>
  );
}
