import { getTranslations } from "next-intl/server";
import { TokensPage } from "@/components/tokens/tokens-page";

export async function generateMetadata() {
  const t = await getTranslations("tokens");
  return { title: t("title") };
}

export default function Page() {
  return <TokensPage />;
}
