import { getTranslations } from "next-intl/server";
import { RedemptionsPage } from "@/components/redemptions/redemptions-page";

export async function generateMetadata() {
  const t = await getTranslations("redemptions");
  return { title: t("title") };
}

export default function Page() {
  return <RedemptionsPage />;
}
