"use client";
// The wallet's online top-up (docs/payments.md): a form (amount with the spec's quick amounts,
// payment method, optional top-up group code) -> a confirm view with the price the server
// computed and a back button -> a hidden form posted to the epay provider, or the Stripe
// Checkout page. Below, the caller's top-up history. The methods offered follow the public
// site status (enable_online_topup, enable_stripe_topup).
import { useTranslations } from "next-intl";
import { ArrowLeft, CreditCard } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useQuotaDisplay, useStatus } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field } from "@/components/ui/input";
import { RadioGroup } from "@/components/ui/radio-group";
import { api, ApiError } from "@/lib/client/api";
import { renderQuota } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";
import { TopUpHistory } from "./topup-history";
import type { PayMethod } from "./types";

// The spec's quick amounts, in dollars.
export const TOPUP_PRESETS = [1, 10, 50, 100, 500, 1000];

// With a StripePriceId the server names no figure: Stripe's Price sets the charge (docs/payments.md).
type Quote = { amount: number | null; unit_price: number | null; priced_by_stripe: boolean };
type Confirm = { amount: number; method: PayMethod; code: string; quote: Quote };

// The amount as typed, forced to a whole number of at least 1.
export function normalizeAmount(text: string): number {
  const n = Math.floor(Number(text));
  return Number.isFinite(n) && n >= 1 ? n : 1;
}

// Posts the provider's signed fields as a hidden form: the browser leaves for the provider
// (also a plan bought through epay, components/wallet/plans-section.tsx).
export function postForm(url: string, fields: Record<string, string>) {
  const form = document.createElement("form");
  form.method = "POST";
  form.action = url;
  form.style.display = "none";
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}

export function TopUpSection() {
  const t = useTranslations("payments");
  const status = useStatus();
  const display = useQuotaDisplay();
  const epayOn = status.enable_online_topup;
  const stripeOn = status.enable_stripe_topup;
  const methods: PayMethod[] = [...(epayOn ? (["zfb", "wx"] as const) : []), ...(stripeOn ? (["stripe"] as const) : [])];
  const [amount, setAmount] = useState("10");
  const [method, setMethod] = useState<PayMethod | null>(null);
  const [code, setCode] = useState("");
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = method && methods.includes(method) ? method : (methods[0] ?? null);

  async function next(e: FormEvent) {
    e.preventDefault();
    if (!chosen) {
      toast.error({ key: "payments.off" });
      return;
    }
    const n = normalizeAmount(amount);
    setAmount(String(n));
    const min = chosen === "stripe" ? status.stripe_min_topup : status.min_topup;
    if (n < min) {
      toast.error({ key: "payments.minAmount", values: { min } });
      return;
    }
    setBusy(true);
    try {
      const r = await api.post<Quote>(chosen === "stripe" ? "/api/user/stripe/amount" : "/api/user/amount", { amount: n, top_up_code: code.trim() });
      setConfirm({ amount: n, method: chosen, code: code.trim(), quote: r.data });
    } catch {
      // the server's message was shown by the API helper
    } finally {
      setBusy(false);
    }
  }

  async function pay() {
    if (!confirm) return;
    setBusy(true);
    try {
      if (confirm.method === "stripe") {
        const r = await api.post<{ pay_link: string }>("/api/user/stripe/pay", { amount: confirm.amount, top_up_code: confirm.code });
        toast.info({ key: "payments.paying" });
        window.location.assign(r.data.pay_link);
        return;
      }
      const r = (await api.post<Record<string, string>>("/api/user/pay", {
        amount: confirm.amount,
        top_up_code: confirm.code,
        payment_method: confirm.method,
      })) as { data: Record<string, string>; url?: string };
      if (!r.url) throw new Error("no url");
      toast.info({ key: "payments.paying" });
      postForm(r.url, r.data);
    } catch (err) {
      // A refusal with a message was shown by the API helper; anything else is the catalogue's.
      if (!(err instanceof ApiError)) toast.error({ key: "payments.payFailed" });
      setBusy(false);
    }
  }

  const currency = confirm?.method === "stripe" ? "$" : "¥";
  return (
    <div className="flex flex-col gap-5" data-testid="topup-section">
      <Card title={t("title")}>
        {methods.length === 0 && (
          <div className="mb-4">
            <Alert tone="warning">{t("off")}</Alert>
          </div>
        )}
        {confirm ? (
          <div className="flex flex-col gap-4" data-testid="topup-confirm">
            <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{t("confirmTitle")}</h3>
            <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
              <dt className="text-zinc-500 dark:text-zinc-400">{t("confirmAmount")}</dt>
              <dd className="text-zinc-900 dark:text-zinc-100">
                ${confirm.amount} ({renderQuota(confirm.amount * display.quotaPerUnit, Object.assign({}, display, { displayInCurrency: false }))})
              </dd>
              <dt className="text-zinc-500 dark:text-zinc-400">{t("confirmMethod")}</dt>
              <dd className="text-zinc-900 dark:text-zinc-100">{t(`methods.${confirm.method}`)}</dd>
              {confirm.code && (
                <>
                  <dt className="text-zinc-500 dark:text-zinc-400">{t("confirmCode")}</dt>
                  <dd className="font-mono text-zinc-900 dark:text-zinc-100">{confirm.code}</dd>
                </>
              )}
              {confirm.quote.priced_by_stripe || confirm.quote.amount === null || confirm.quote.unit_price === null ? (
                <>
                  <dt className="text-zinc-500 dark:text-zinc-400">{t("confirmPrice")}</dt>
                  <dd className="text-zinc-900 dark:text-zinc-100" data-testid="topup-price">
                    {t("pricedByStripe")}
                  </dd>
                </>
              ) : (
                <>
                  <dt className="text-zinc-500 dark:text-zinc-400">{t("confirmUnit")}</dt>
                  <dd className="text-zinc-900 dark:text-zinc-100">
                    {currency}
                    {confirm.quote.unit_price.toFixed(2)}
                  </dd>
                  <dt className="text-zinc-500 dark:text-zinc-400">{t("confirmPrice")}</dt>
                  <dd className="text-lg font-semibold text-zinc-900 dark:text-zinc-100" data-testid="topup-price">
                    {currency}
                    {confirm.quote.amount.toFixed(2)}
                  </dd>
                </>
              )}
            </dl>
            <div className="flex gap-2">
              <Button variant="secondary" onClick={() => setConfirm(null)} disabled={busy}>
                <ArrowLeft aria-hidden className="h-4 w-4" />
                {t("back")}
              </Button>
              <Button onClick={() => void pay()} disabled={busy}>
                <CreditCard aria-hidden className="h-4 w-4" />
                {t("pay")}
              </Button>
            </div>
          </div>
        ) : (
          <form onSubmit={(e) => void next(e)} className="flex flex-col gap-4" data-testid="topup-form">
            <Field
              label={t("amount")}
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              onBlur={() => setAmount(String(normalizeAmount(amount)))}
              disabled={methods.length === 0}
            />
            <div className="flex flex-wrap gap-2" role="group" aria-label={t("presets")}>
              {TOPUP_PRESETS.map((n) => (
                <Button
                  key={n}
                  size="sm"
                  variant={normalizeAmount(amount) === n ? "primary" : "secondary"}
                  onClick={() => setAmount(String(n))}
                  disabled={methods.length === 0}
                >
                  {t("presetDollars", { n })}
                </Button>
              ))}
            </div>
            {methods.length > 0 && chosen && (
              <RadioGroup<PayMethod>
                legend={t("method")}
                value={chosen}
                options={methods.map((m) => ({ value: m, label: t(`methods.${m}`) }))}
                onChange={setMethod}
              />
            )}
            <Field
              label={t("code")}
              placeholder={t("codePlaceholder")}
              value={code}
              maxLength={64}
              onChange={(e) => setCode(e.target.value)}
              disabled={methods.length === 0}
            />
            <div>
              <Button type="submit" disabled={busy || methods.length === 0}>
                {t("next")}
              </Button>
            </div>
          </form>
        )}
      </Card>
      <TopUpHistory />
    </div>
  );
}
