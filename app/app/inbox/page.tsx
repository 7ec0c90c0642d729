import { getTranslations } from "next-intl/server";
import { InboxPage } from "@/components/inbox/inbox-page";

export async function generateMetadata() {
  const t = await getTranslations("inbox");
  return { title: t("title") };
}

export default function Page() {
  return <InboxPage />;
}
