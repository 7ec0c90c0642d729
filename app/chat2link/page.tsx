import { getTranslations } from "next-intl/server";
import { ChatRedirect } from "@/components/chat/chat-redirect";

export async function generateMetadata() {
  const t = await getTranslations("chat");
  return { title: t("title") };
}

export default function Page() {
  return <ChatRedirect />;
}
