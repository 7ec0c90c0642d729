import { getTranslations } from "next-intl/server";
import { UsageLogsPage } from "@/components/logs/usage-logs-page";

export async function generateMetadata() {
  const t = await getTranslations("logs");
  return { title: t("title") };
}

export default function Page() {
  return <UsageLogsPage />;
}
