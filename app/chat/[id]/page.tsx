import { getTranslations } from "next-intl/server";
import { ChatEmbed } from "@/components/chat/chat-embed";

export async function generateMetadata() {
  const t = await getTranslations("chat");
  return { title: t("title") };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ChatEmbed id={id} />;
}
