// /app/dashboard: the data dashboard (docs/dashboard.md), shown when DataExportEnabled is on
import { getTranslations } from "next-intl/server";
import { DashboardPage } from "@/components/dashboard/dashboard-page";

export async function generateMetadata() {
  const t = await getTranslations("dashboard");
  return { title: t("title") };
}

export default function Page() {
  return <DashboardPage />;
}
