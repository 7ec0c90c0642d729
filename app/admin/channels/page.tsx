import { getTranslations } from "next-intl/server";
import { ChannelsPage } from "@/components/channels/channels-page";

export async function generateMetadata() {
  const t = await getTranslations("channels");
  return { title: t("title") };
}

export default function Page() {
  return <ChannelsPage />;
}
