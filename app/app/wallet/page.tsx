// /app/wallet (docs/redemptions.md, "Wallet page"): the title, the row of cards (balance and
// plan; redeem, buy codes, top up), the plans (docs/console-ui.md, "Plans"), the limits
// with their meters ("Limits"), then two tabs: online top-up with the order history
// (docs/payments.md) and the statement (docs/statement.md). `?tab=statement` / `?tab=topup`
// chooses the tab (components/wallet/wallet-tabs.tsx); `?code=` pre-fills the redeem dialog.
import { getTranslations } from "next-intl/server";
import { PageTitle } from "@/components/ui/card";
import { PlansSection } from "@/components/wallet/plans-section";
import { LimitsCard } from "@/components/wallet/limits-card";
import { WalletOverview } from "@/components/wallet/wallet-overview";
import { WalletTabs } from "@/components/wallet/wallet-tabs";

export async function generateMetadata() {
  const t = await getTranslations("wallet");
  return { title: t("title") };
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function Page({ searchParams }: { searchParams: Promise<{ code?: string | string[] }> }) {
  const t = await getTranslations();
  const q = await searchParams;
  const code = first(q.code)?.trim().slice(0, 200) ?? "";
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <PageTitle>{t("wallet.title")}</PageTitle>
      <div className="flex flex-col gap-6">
        <WalletOverview presetCode={code} />
        <PlansSection />
        <LimitsCard />
        <WalletTabs />
      </div>
    </div>
  );
}
