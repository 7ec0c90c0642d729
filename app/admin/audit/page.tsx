import { getTranslations } from "next-intl/server";
import { AuditLogPage } from "@/components/audit/audit-page";

export async function generateMetadata() {
  const t = await getTranslations("audit");
  return { title: t("title") };
}

export default function Page() {
  return <AuditLogPage />;
}
