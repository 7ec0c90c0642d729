"use client";
// The wallet's first row of cards: the balance (as the console shows quota everywhere), the
// plan label ("pay as you go", or the active plan's name, docs/console-ui.md "Plans"), and the buttons: redeem (with its dialog), buy redemption codes
// (a link to the super admin's TopUpLink, published as top_up_link, in a new tab; without one
// no button but a note saying where codes come from, docs/console-ui.md), and top up (the top-up tab, only when an online payment method
// is on). A ?code= in the address
// opens the dialog with the code pre-filled; after a redemption the address loses it, so a
// reload does not offer the spent code again. The balance is SWR's /api/user/self: any
// section that changes it reloads it with refreshWallet() (docs/redemptions.md), as does a
// return to the page from a payment page through the browser's back button.
import { useTranslations } from "next-intl";
import { CreditCard, ExternalLink, Gift } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import useSWR from "swr";
import { useQuotaDisplay, useStatus } from "@/components/layout/providers";
import { useSelf } from "@/components/me/use-self";
import { MY_PLANS } from "@/components/plans/paths";
import type { UserPlans } from "@/components/plans/types";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, Stat } from "@/components/ui/card";
import { renderQuota } from "@/lib/client/format";
import { RedeemDialog } from "./redeem-dialog";
import { refreshWallet } from "./refresh-wallet";

export function WalletOverview({ presetCode }: { presetCode: string }) {
  const t = useTranslations("wallet");
  const display = useQuotaDisplay();
  const status = useStatus();
  const router = useRouter();
  const canTopUp = status.enable_online_topup || status.enable_stripe_topup;
  const topUpLink = status.top_up_link.trim();
  useEffect(() => {
    // back from the provider's page: the browser may show this page from its cache
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) void refreshWallet();
    };
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, []);
  const { data: user } = useSelf();
  const { data: plans } = useSWR<UserPlans>(MY_PLANS);
  const active = plans?.subscriptions.find((s) => s.status === "active");
  const [redeeming, setRedeeming] = useState(presetCode !== "");
  const [preset, setPreset] = useState(presetCode);
  const money = (q: number | undefined) => (q === undefined ? "…" : renderQuota(q, display));
  return (
    <>
      <div className="grid gap-4 md:grid-cols-2">
        <Card
          title={t("balanceTitle")}
          actions={
            <span data-testid="wallet-plan">
              <Badge color={active ? "green" : "blue"}>{active ? active.plan_name : t("payAsYouGo")}</Badge>
            </span>
          }
        >
          <div className="grid grid-cols-2 gap-4" data-testid="wallet-balance">
            <Stat label={t("balance")} value={<span data-testid="balance-value">{money(user?.quota)}</span>} />
            <Stat label={t("used")} value={money(user?.used_quota)} />
          </div>
          <p className="mt-3 text-xs text-zinc-500 dark:text-zinc-400">{active ? t("planActiveHint", { name: active.plan_name }) : t("planHint")}</p>
        </Card>
        <Card title={t("redeem.cardTitle")}>
          <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">{t("redeem.cardText")}</p>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => setRedeeming(true)}>
              <Gift aria-hidden className="h-4 w-4" />
              {t("redeem.open")}
            </Button>
            {topUpLink && (
              <a
                href={topUpLink}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex h-9 items-center gap-1.5 rounded-md border border-zinc-300 bg-white px-4 text-sm font-medium whitespace-nowrap text-zinc-800 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
              >
                <ExternalLink aria-hidden className="h-4 w-4" />
                {t("buyCodes")}
              </a>
            )}
            {canTopUp && (
              <Link
                prefetch={false}
                href="/app/wallet?tab=topup"
                scroll={false}
                className="inline-flex h-9 items-center gap-1.5 rounded-md border border-zinc-300 bg-white px-4 text-sm font-medium whitespace-nowrap text-zinc-800 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
              >
                <CreditCard aria-hidden className="h-4 w-4" />
                {t("topUp")}
              </Link>
            )}
          </div>
          {/* No shop link set: no button that leads nowhere, but where codes come from. */}
          {!topUpLink && (
            <p className="mt-3 text-xs text-zinc-500 dark:text-zinc-400" data-testid="no-top-up-link">
              {t("noTopUpLinkNote")}
            </p>
          )}
        </Card>
      </div>
      <RedeemDialog
        open={redeeming}
        onOpenChange={setRedeeming}
        presetCode={preset}
        onRedeemed={() => {
          setRedeeming(false);
          if (preset) {
            setPreset("");
            router.replace("/app/wallet");
          }
        }}
      />
    </>
  );
}
