import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { ChannelEditor } from "@/components/channels/channel-editor";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const t = await getTranslations("channels.editor");
  return { title: t("editTitle", { id: (await params).id }) };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id <= 0) notFound();
  return <ChannelEditor id={id} />;
}
