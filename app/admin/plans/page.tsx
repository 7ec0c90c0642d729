import { getTranslations } from "next-intl/server";
import { PlansPage } from "@/components/plans/plans-page";

export async function generateMetadata() {
  const t = await getTranslations("plans");
  return { title: t("title") };
}

export default function Page() {
  return <PlansPage />;
}
