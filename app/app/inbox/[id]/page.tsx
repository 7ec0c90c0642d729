import { getTranslations } from "next-intl/server";
import { MessageDetail } from "@/components/inbox/message-detail";

export async function generateMetadata() {
  const t = await getTranslations("inbox");
  return { title: t("title") };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <MessageDetail id={id} />;
}
