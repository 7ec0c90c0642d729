import { getTranslations } from "next-intl/server";
import { MePage } from "@/components/me/me-page";

export async function generateMetadata() {
  const t = await getTranslations("me");
  return { title: t("title") };
}

export default function Page() {
  return <MePage />;
}
