"use client";
// The wallet's first row of cards: the balance (as the console shows quota everywhere), the
// plan label "pay as you go", and the redeem button with its dialog. A ?code= in the address
// opens the dialog with the code pre-filled; after a redemption the address loses it, so a
// reload does not offer the spent code again. The balance is SWR's /api/user/self: any
// section that changes it reloads it with mutate(SELF_PATH) (docs/redemptions.md).
import { useTranslations } from "next-intl";
import { Gift } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useQuotaDisplay } from "@/components/layout/providers";
import { useSelf } from "@/components/me/use-self";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, Stat } from "@/components/ui/card";
import { renderQuota } from "@/lib/client/format";
import { RedeemDialog } from "./redeem-dialog";

export function WalletOverview({ presetCode }: { presetCode: string }) {
  const t = useTranslations("wallet");
  const display = useQuotaDisplay();
  const router = useRouter();
  const { data: user } = useSelf();
  const [redeeming, setRedeeming] = useState(presetCode !== "");
  const [preset, setPreset] = useState(presetCode);
  const money = (q: number | undefined) => (q === undefined ? "…" : renderQuota(q, display));
  return (
    <>
      <div className="grid gap-4 md:grid-cols-2">
        <Card title={t("balanceTitle")} actions={<Badge color="blue">{t("payAsYouGo")}</Badge>}>
          <div className="grid grid-cols-2 gap-4" data-testid="wallet-balance">
            <Stat label={t("balance")} value={<span data-testid="balance-value">{money(user?.quota)}</span>} />
            <Stat label={t("used")} value={money(user?.used_quota)} />
          </div>
          <p className="mt-3 text-xs text-zinc-500 dark:text-zinc-400">{t("planHint")}</p>
        </Card>
        <Card title={t("redeem.cardTitle")}>
          <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">{t("redeem.cardText")}</p>
          <Button onClick={() => setRedeeming(true)}>
            <Gift aria-hidden className="h-4 w-4" />
            {t("redeem.open")}
          </Button>
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
