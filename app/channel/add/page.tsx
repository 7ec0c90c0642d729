import { getTranslations } from "next-intl/server";
import { ChannelEditor } from "@/components/channels/channel-editor";

export async function generateMetadata() {
  const t = await getTranslations("channels.editor");
  return { title: t("addTitle") };
}

export default function Page() {
  return <ChannelEditor id={null} />;
}
