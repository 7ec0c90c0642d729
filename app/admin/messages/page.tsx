import { getTranslations } from "next-intl/server";
import { MessagesPage } from "@/components/messages/messages-page";

export async function generateMetadata() {
  const t = await getTranslations("messages");
  return { title: t("title") };
}

export default function Page() {
  return <MessagesPage />;
}
