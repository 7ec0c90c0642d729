import { getTranslations } from "next-intl/server";
import { PlaygroundPage } from "@/components/playground/playground-page";

export async function generateMetadata() {
  const t = await getTranslations("playground");
  return { title: t("title") };
}

export default function Page() {
  return <PlaygroundPage />;
}
