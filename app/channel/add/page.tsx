import { getTranslations } from "next-intl/server";
import { ChannelEditor } from "@/components/channels/channel-editor";
import { Forbidden } from "@/components/layout/forbidden";
import { can } from "@/lib/client/navigation";
import { shellUser } from "@/lib/http/shell-user";

export async function generateMetadata() {
  const t = await getTranslations("channels.editor");
  return { title: t("addTitle") };
}

export default async function Page() {
  // adding a channel is a write (channels:write, docs/permissions.md)
  if (!can(await shellUser(), "channels:write")) return <Forbidden title={(await getTranslations("channels.editor"))("addTitle")} />;
  return <ChannelEditor id={null} />;
}
