// /app/wallet (docs/redemptions.md, "Wallet page"): the title, the row of cards (balance and
// plan, redeem), then two tabs: online top-up with the order history (docs/payments.md) and
// the statement (docs/statement.md). `?tab=statement` opens the second; `?code=` pre-fills
// the redeem dialog.
import { getTranslations } from "next-intl/server";
import { PageTitle } from "@/components/ui/card";
import { Tabs } from "@/components/ui/tabs";
import { StatementSection } from "@/components/wallet/statement-section";
import { TopUpSection } from "@/components/wallet/topup-section";
import { WalletOverview } from "@/components/wallet/wallet-overview";

export async function generateMetadata() {
  const t = await getTranslations("wallet");
  return { title: t("title") };
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function Page({ searchParams }: { searchParams: Promise<{ code?: string | string[]; tab?: string | string[] }> }) {
  const t = await getTranslations();
  const q = await searchParams;
  const code = first(q.code)?.trim().slice(0, 200) ?? "";
  const tab = first(q.tab) === "statement" ? "statement" : "topup";
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <PageTitle>{t("wallet.title")}</PageTitle>
      <div className="flex flex-col gap-6">
        <WalletOverview presetCode={code} />
        <Tabs
          defaultValue={tab}
          items={[
            { value: "topup", label: t("payments.title"), content: <TopUpSection /> },
            { value: "statement", label: t("statement.title"), content: <StatementSection /> },
          ]}
        />
      </div>
    </div>
  );
}
