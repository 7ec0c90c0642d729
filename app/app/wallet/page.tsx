// /app/wallet (docs/redemptions.md, "Wallet page"): the title, then a column of blocks: the row
// of cards (balance and plan, redeem), then the wallet's sections, one under another: online
// top-up with the order history (docs/payments.md).
import { getTranslations } from "next-intl/server";
import { PageTitle } from "@/components/ui/card";
import { TopUpSection } from "@/components/wallet/topup-section";
import { WalletOverview } from "@/components/wallet/wallet-overview";

export async function generateMetadata() {
  const t = await getTranslations("wallet");
  return { title: t("title") };
}

export default async function Page({ searchParams }: { searchParams: Promise<{ code?: string | string[] }> }) {
  const t = await getTranslations("wallet");
  const q = await searchParams;
  const code = (Array.isArray(q.code) ? q.code[0] : q.code)?.trim().slice(0, 200) ?? "";
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <PageTitle>{t("title")}</PageTitle>
      <div className="flex flex-col gap-6">
        <WalletOverview presetCode={code} />
        <TopUpSection />
      </div>
    </div>
  );
}
