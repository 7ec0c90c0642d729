"use client";
// The redeem dialog of /app/wallet (docs/redemptions.md): idle, submitting, then success
// (toast with the amount; the balance, the statement and the top-up history reloaded) or the server's refusal. A code handed in the
// address (?code=) is pre-filled and shown as recognised, with a link to type another.
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import { FormProvider } from "react-hook-form";
import { z } from "zod";
import { FormText, toastFirstError, useRuleForm } from "@/components/forms";
import { useQuotaDisplay } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { api } from "@/lib/client/api";
import { renderQuota } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";
import { redeemCodeRefusal } from "@/lib/redemptions/field-rules";
import { useTurnstile } from "@/components/auth/turnstile";
import { refreshWallet } from "./refresh-wallet";

type RedeemForm = { key: string };
const schema = z.object({ key: z.string().refine((k) => redeemCodeRefusal(k) === null, "msg:redeem_code_required") });

export function RedeemDialog({
  open,
  onOpenChange,
  presetCode,
  onRedeemed,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  presetCode: string;
  onRedeemed: () => void;
}) {
  const t = useTranslations("wallet.redeem");
  const display = useQuotaDisplay();
  const methods = useRuleForm<RedeemForm>(schema, { key: presetCode });
  const [recognised, setRecognised] = useState(presetCode !== "");
  const [busy, setBusy] = useState(false);
  const human = useTurnstile();
  const { reset, handleSubmit, watch } = methods;
  useEffect(() => {
    if (open) {
      reset({ key: presetCode });
      setRecognised(presetCode !== "");
    }
  }, [open, presetCode, reset]);
  const key = watch("key");
  const shown = useMemo(() => (key.length > 12 ? `${key.slice(0, 6)}…${key.slice(-4)}` : key), [key]);

  async function redeem(values: RedeemForm) {
    if (!human.ready()) return;
    setBusy(true);
    try {
      // `turnstile` carries the human-check token when the check is on (docs/redemptions.md).
      const r = await api.post<{ quota: number; is_gift: boolean }>(`/api/user/topup${human.param(true)}`, { key: values.key.trim() });
      toast.success({ key: r.data.is_gift ? "wallet.redeem.giftSuccess" : "wallet.redeem.success", values: { amount: renderQuota(r.data.quota, display) } });
      await refreshWallet();
      onRedeemed();
    } catch {
      // the server's refusal was shown by the API helper
    } finally {
      human.reset();
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("title")}
      description={t("description")}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t("cancel")}
          </Button>
          <Button disabled={busy} onClick={() => void handleSubmit(redeem, toastFirstError)()}>
            {busy ? t("submitting") : t("submit")}
          </Button>
        </>
      }
    >
      <FormProvider {...methods}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void handleSubmit(redeem, toastFirstError)();
          }}
        >
          {recognised ? (
            <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900 dark:border-green-900 dark:bg-green-950/50 dark:text-green-200">
              <span data-testid="recognised-code">
                {t("recognised")} <code className="font-mono">{shown}</code>
              </span>
              <button
                type="button"
                className="rounded font-medium underline underline-offset-2 outline-none focus-visible:ring-2 focus-visible:ring-green-600"
                onClick={() => {
                  setRecognised(false);
                  methods.setValue("key", "");
                }}
              >
                {t("change")}
              </button>
            </div>
          ) : (
            <FormText name="key" label={t("code")} placeholder={t("placeholder")} autoComplete="off" autoFocus />
          )}
          {human.widget}
        </form>
      </FormProvider>
    </Dialog>
  );
}
