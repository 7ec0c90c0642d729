import { getTranslations } from "next-intl/server";
import { RegisterForm } from "@/components/auth/register-form";

export async function generateMetadata() {
  const t = await getTranslations("register");
  return { title: t("title") };
}

export default async function RegisterPage({ searchParams }: { searchParams: Promise<{ aff?: string }> }) {
  const q = await searchParams;
  return <RegisterForm aff={q.aff ?? null} />;
}
