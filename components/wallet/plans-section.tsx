"use client";
// The wallet's plans (docs/console-ui.md, "Plans"): the caller's active subscriptions with
// their meters (the period's quota used and left, when it resets, when the plan ends or a
// Stripe subscription renews, whose renewal can be cancelled), the ended ones in a short list, the billing preference (plan first or balance first, and
// whether a call falls back to the balance when the plan's period is used up), and the plans
// for sale with a buy button. Buying: a dialog with the price and the methods the plan and
// the site allow (the balance when the plan says so; epay when it is on, as the top-up
// decides; Stripe when it is on and the plan has a Stripe price); the balance is charged at once, epay is the signed form posted as the
// top-up posts it, Stripe the Checkout page. Hidden while there is no plan to show.
import { useTranslations } from "next-intl";
import { CalendarClock, ShoppingCart } from "lucide-react";
import { useEffect, useState } from "react";
import useSWR from "swr";
import { useQuotaDisplay, useStatus } from "@/components/layout/providers";
import { durationText, formatPrice } from "@/components/plans/plan-columns";
import { PlanMeter, subscriptionColor } from "@/components/plans/plan-meter";
import { CANCEL, MY_PLANS, PLANS_FOR_SALE, PREFERENCE, PURCHASE } from "@/components/plans/paths";
import { useConfirm } from "@/components/forms/use-confirm";
import type { BillingPreference, Plan, Subscription, UserPlans } from "@/components/plans/types";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { RadioGroup } from "@/components/ui/radio-group";
import { Switch } from "@/components/ui/switch";
import { api, ApiError } from "@/lib/client/api";
import { formatTimestamp, renderQuota } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";
import { refreshWallet } from "./refresh-wallet";
import { postForm } from "./topup-section";

export type PlanPayMethod = "balance" | "zfb" | "wx" | "stripe";

/** The methods a plan can be bought with: the balance if the plan allows it, then what the site has on. */
export function planPayMethods(plan: Plan, status: { enable_online_topup: boolean; enable_stripe_topup: boolean }): PlanPayMethod[] {
  return [
    ...(plan.wallet_purchasable ? (["balance"] as const) : []),
    ...(status.enable_online_topup ? (["zfb", "wx"] as const) : []),
    ...(status.enable_stripe_topup && plan.stripe_purchasable ? (["stripe"] as const) : []),
  ];
}

function SubscriptionCard({ sub, onChanged }: { sub: Subscription; onChanged: () => void }) {
  const t = useTranslations("wallet.plans");
  const tp = useTranslations("plans");
  const display = useQuotaDisplay();
  const confirm = useConfirm({
    title: t("cancelTitle"),
    description: t("cancelHelp", { time: formatTimestamp(sub.ends_at) }),
    action: t("cancelAction"),
    danger: true,
  });
  const [busy, setBusy] = useState(false);
  // a Stripe subscription stops renewing; it stays active to the end of its term
  async function cancel() {
    if (!(await confirm.ask())) return;
    setBusy(true);
    try {
      await api.post(CANCEL(sub.id));
      toast.success({ key: "wallet.plans.cancelled" });
      onChanged();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="flex flex-col gap-3 rounded-md border border-zinc-200 p-4 dark:border-zinc-800" data-testid={`subscription-${sub.id}`}>
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <span className="truncate font-semibold text-zinc-900 dark:text-zinc-100">{sub.plan_name}</span>
        <Badge color={subscriptionColor(sub.status)}>{tp(`status.${sub.status}`)}</Badge>
        {sub.auto_renew && <Badge color="blue">{t("autoRenew")}</Badge>}
      </div>
      <PlanMeter sub={sub} display={display} />
      <p className="flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400" data-testid="subscription-end">
        <CalendarClock aria-hidden className="h-3.5 w-3.5 shrink-0" />
        {sub.auto_renew ? t("renewsAt", { time: formatTimestamp(sub.ends_at) }) : t("endsAt", { time: formatTimestamp(sub.ends_at) })}
      </p>
      {sub.auto_renew && (
        <div>
          <Button variant="secondary" size="sm" disabled={busy} onClick={() => void cancel()}>
            {t("cancelRenewal")}
          </Button>
        </div>
      )}
      {confirm.dialog}
    </div>
  );
}

function Preference({ data, onChanged }: { data: UserPlans; onChanged: () => void }) {
  const t = useTranslations("wallet.plans");
  const [busy, setBusy] = useState(false);
  // shown as chosen at once; put back as the server has it when the save fails
  const saved = { billing_preference: data.billing_preference, wallet_fallback: data.wallet_fallback };
  const [shown, setShown] = useState(saved);
  useEffect(
    () => setShown({ billing_preference: data.billing_preference, wallet_fallback: data.wallet_fallback }),
    [data.billing_preference, data.wallet_fallback],
  );
  async function save(change: { billing_preference?: BillingPreference; wallet_fallback?: boolean }) {
    const next = { ...shown, ...change };
    setShown(next);
    setBusy(true);
    try {
      await api.put(PREFERENCE, next);
      toast.success({ key: "wallet.plans.preferenceSaved" });
      onChanged();
    } catch {
      setShown(saved); // the API helper reported why
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="flex flex-col gap-3 rounded-md bg-zinc-50 p-4 dark:bg-zinc-800/50" data-testid="plan-preference" aria-busy={busy}>
      <RadioGroup<BillingPreference>
        legend={t("preference")}
        value={shown.billing_preference}
        options={[
          { value: "plan_first", label: t("planFirst") },
          { value: "wallet_first", label: t("walletFirst") },
        ]}
        onChange={(v) => void save({ billing_preference: v })}
      />
      <Switch
        checked={shown.wallet_fallback}
        disabled={busy}
        onChange={(v) => void save({ wallet_fallback: v })}
        label={t("fallback")}
        hint={shown.wallet_fallback ? t("fallbackOn") : t("fallbackOff")}
      />
    </div>
  );
}

function PlanOffer({ plan, onBuy }: { plan: Plan; onBuy: (p: Plan) => void }) {
  const t = useTranslations("wallet.plans");
  const tp = useTranslations("plans");
  const display = useQuotaDisplay();
  return (
    <div className="flex flex-col gap-2 rounded-md border border-zinc-200 p-4 dark:border-zinc-800" data-testid={`plan-offer-${plan.id}`}>
      <div className="flex items-baseline justify-between gap-2">
        <span className="min-w-0 truncate font-semibold text-zinc-900 dark:text-zinc-100">{plan.name}</span>
        <span className="text-lg font-semibold whitespace-nowrap text-zinc-900 dark:text-zinc-100">{formatPrice(plan.price, plan.currency)}</span>
      </div>
      {plan.description && <p className="text-sm text-zinc-600 dark:text-zinc-400">{plan.description}</p>}
      <ul className="flex flex-col gap-0.5 text-xs text-zinc-600 dark:text-zinc-400">
        <li>{t("offerDuration", { duration: durationText(tp, plan.duration_days) })}</li>
        <li>
          {t("offerQuota", { quota: renderQuota(Number(plan.quota), display) })} · {tp(`reset.${plan.reset_period}`)}
        </li>
        <li>{plan.models.length === 0 ? tp("allModels") : t("offerModels", { models: plan.models.join(", ") })}</li>
        {plan.upgrade_group && <li>{t("offerGroup", { group: plan.upgrade_group })}</li>}
      </ul>
      <div className="mt-auto pt-1">
        <Button size="sm" onClick={() => onBuy(plan)} aria-label={t("buyOf", { name: plan.name })}>
          <ShoppingCart aria-hidden className="h-3.5 w-3.5" />
          {t("buy")}
        </Button>
      </div>
    </div>
  );
}

function BuyDialog({ plan, onClose, onBought }: { plan: Plan | null; onClose: () => void; onBought: () => void }) {
  const t = useTranslations("wallet.plans");
  const tpay = useTranslations("payments");
  const status = useStatus();
  const methods = plan ? planPayMethods(plan, status) : [];
  const [method, setMethod] = useState<PlanPayMethod | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = method && methods.includes(method) ? method : (methods[0] ?? null);
  const label = (m: PlanPayMethod) => (m === "balance" ? t("payBalance") : tpay(`methods.${m}`));

  async function buy() {
    if (!plan || !chosen) return;
    setBusy(true);
    try {
      const r = (await api.post<unknown>(PURCHASE, { plan_id: plan.id, payment_method: chosen })) as { data: unknown; url?: string };
      if (chosen === "balance") {
        toast.success({ key: "wallet.plans.bought", values: { name: plan.name } });
        setBusy(false);
        onBought();
        return;
      }
      if (chosen === "stripe") {
        const d = r.data as { pay_link?: string; url?: string } | string;
        const link = typeof d === "string" ? d : (d.pay_link ?? d.url);
        if (!link) throw new Error("no checkout url");
        toast.info({ key: "payments.paying" });
        window.location.assign(link);
        return;
      }
      if (!r.url) throw new Error("no url");
      toast.info({ key: "payments.paying" });
      postForm(r.url, r.data as Record<string, string>);
    } catch (err) {
      if (!(err instanceof ApiError)) toast.error({ key: "payments.payFailed" });
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={plan !== null}
      onOpenChange={(o) => !o && !busy && onClose()}
      title={plan ? t("buyTitle", { name: plan.name }) : ""}
      description={t("buyDescription")}
      footer={<DialogActions cancel={tpay("back")} onCancel={onClose} action={t("pay")} onAction={() => void buy()} busy={busy || !chosen} />}
    >
      {plan && (
        <div className="flex flex-col gap-4" data-testid="plan-buy">
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-zinc-500 dark:text-zinc-400">{t("price")}</dt>
            <dd className="font-semibold text-zinc-900 dark:text-zinc-100" data-testid="plan-buy-price">
              {formatPrice(plan.price, plan.currency)}
            </dd>
          </dl>
          {chosen ? (
            <RadioGroup<PlanPayMethod>
              legend={tpay("method")}
              value={chosen}
              options={methods.map((m) => ({ value: m, label: label(m) }))}
              onChange={setMethod}
            />
          ) : (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("noMethod")}</p>
          )}
          {chosen === "balance" && <p className="text-xs text-zinc-500 dark:text-zinc-400">{t("balanceNote")}</p>}
        </div>
      )}
    </Dialog>
  );
}

export function PlansSection() {
  const t = useTranslations("wallet.plans");
  const tp = useTranslations("plans");
  const mine = useSWR<UserPlans>(MY_PLANS);
  const offers = useSWR<Plan[]>(PLANS_FOR_SALE);
  const [buying, setBuying] = useState<Plan | null>(null);
  const subs = mine.data?.subscriptions ?? [];
  const active = subs.filter((s) => s.status === "active");
  const ended = subs.filter((s) => s.status !== "active");
  const plans = offers.data ?? [];
  if (subs.length === 0 && plans.length === 0) return null;

  return (
    <Card title={t("title")}>
      <div className="flex flex-col gap-5" data-testid="plans-section">
        {active.length > 0 && (
          <section className="flex flex-col gap-3" aria-label={t("mine")}>
            <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{t("mine")}</h3>
            <div className="grid gap-3 lg:grid-cols-2">
              {active.map((s) => (
                <SubscriptionCard key={s.id} sub={s} onChanged={() => void mine.mutate()} />
              ))}
            </div>
          </section>
        )}
        {subs.length > 0 && mine.data && <Preference data={mine.data} onChanged={() => void mine.mutate()} />}
        {plans.length > 0 && (
          <section className="flex flex-col gap-3" aria-label={t("forSale")}>
            <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{t("forSale")}</h3>
            <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
              {plans.map((p) => (
                <PlanOffer key={p.id} plan={p} onBuy={setBuying} />
              ))}
            </div>
          </section>
        )}
        {ended.length > 0 && (
          <section className="flex flex-col gap-2" aria-label={t("ended")} data-testid="plans-ended">
            <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{t("ended")}</h3>
            <ul className="flex flex-col divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
              {ended.map((s) => (
                <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-1.5">
                  <span className="flex min-w-0 items-center gap-2">
                    <span className="truncate text-zinc-800 dark:text-zinc-200">{s.plan_name}</span>
                    <Badge color={subscriptionColor(s.status)}>{tp(`status.${s.status}`)}</Badge>
                  </span>
                  <span className="text-xs text-zinc-500 dark:text-zinc-400">
                    {formatTimestamp(s.starts_at)} – {formatTimestamp(s.ends_at)}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
      <BuyDialog
        plan={buying}
        onClose={() => setBuying(null)}
        onBought={() => {
          setBuying(null);
          void refreshWallet();
        }}
      />
    </Card>
  );
}
