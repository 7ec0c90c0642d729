import { getTranslations } from "next-intl/server";
import { LoginForm } from "@/components/auth/login-form";

export async function generateMetadata() {
  const t = await getTranslations("login");
  return { title: t("title") };
}

// step=2fa: a third-party sign-in answered {require_2fa: true}; the page opens at the code step.
type Search = Promise<{ expired?: string; returnTo?: string; step?: string }>;

export default async function LoginPage({ searchParams }: { searchParams: Search }) {
  const q = await searchParams;
  return <LoginForm expired={q.expired === "true"} returnTo={q.returnTo ?? null} codeStep={q.step === "2fa"} />;
}
