import { getTranslations } from "next-intl/server";
import { ResetRequestForm } from "@/components/auth/reset-request-form";

export async function generateMetadata() {
  const t = await getTranslations("reset");
  return { title: t("title") };
}

export default function ResetPage() {
  return <ResetRequestForm />;
}
