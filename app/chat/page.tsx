import { getTranslations } from "next-intl/server";
import { ChatEmbed } from "@/components/chat/chat-embed";

export async function generateMetadata() {
  const t = await getTranslations("chat");
  return { title: t("title") };
}

// /chat without a number is the first chat.
export default function Page() {
  return <ChatEmbed id="0" />;
}
