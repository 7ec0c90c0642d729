import { getTranslations } from "next-intl/server";
import { CouponsPage } from "@/components/coupons/coupons-page";

export async function generateMetadata() {
  const t = await getTranslations("coupons");
  return { title: t("title") };
}

export default function Page() {
  return <CouponsPage />;
}
