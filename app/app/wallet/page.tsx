import { getTranslations } from "next-intl/server";
import { PageTitle } from "@/components/ui/card";
import { TopUpSection } from "@/components/wallet/topup-section";

// The wallet (docs/payments.md): the online top-up section. The balance and the redeem dialog
// join it from the redemption work.
export async function generateMetadata() {
  const t = await getTranslations("payments");
  return { title: t("walletTitle") };
}

export default async function Page() {
  const t = await getTranslations("payments");
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6">
      <PageTitle>{t("walletTitle")}</PageTitle>
      <TopUpSection />
    </div>
  );
}
