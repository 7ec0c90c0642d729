import { getTranslations } from "next-intl/server";
import { ResetConfirmForm } from "@/components/auth/reset-confirm-form";

export async function generateMetadata() {
  const t = await getTranslations("reset");
  return { title: t("confirmTitle") };
}

export default async function ResetConfirmPage({ searchParams }: { searchParams: Promise<{ email?: string; token?: string }> }) {
  const q = await searchParams;
  return <ResetConfirmForm email={q.email ?? ""} token={q.token ?? ""} />;
}
