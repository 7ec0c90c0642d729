import { getTranslations } from "next-intl/server";
import { PricingPage } from "@/components/pricing/pricing-page";

export async function generateMetadata() {
  const t = await getTranslations("pricing");
  return { title: t("title") };
}

export default function Page() {
  return <PricingPage />;
}
