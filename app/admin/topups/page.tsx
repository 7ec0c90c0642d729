import { getTranslations } from "next-intl/server";
import { TopUpsPage } from "@/components/topups/topups-page";

export async function generateMetadata() {
  const t = await getTranslations("payments");
  return { title: t("adminTitle") };
}

export default function Page() {
  return <TopUpsPage />;
}
