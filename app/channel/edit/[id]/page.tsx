import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { ChannelEditor } from "@/components/channels/channel-editor";
import { Forbidden } from "@/components/layout/forbidden";
import { can } from "@/lib/client/navigation";
import { shellUser } from "@/lib/http/shell-user";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const t = await getTranslations("channels.editor");
  return { title: t("editTitle", { id: (await params).id }) };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id <= 0) notFound();
  // editing a channel is a write (channels:write, docs/permissions.md)
  if (!can(await shellUser(), "channels:write")) return <Forbidden title={(await getTranslations("channels.editor"))("editTitle", { id })} />;
  return <ChannelEditor id={id} />;
}
