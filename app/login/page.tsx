import { getTranslations } from "next-intl/server";
import { LoginForm } from "@/components/auth/login-form";

export async function generateMetadata() {
  const t = await getTranslations("login");
  return { title: t("title") };
}

type Search = Promise<{ expired?: string; returnTo?: string }>;

export default async function LoginPage({ searchParams }: { searchParams: Search }) {
  const q = await searchParams;
  return <LoginForm expired={q.expired === "true"} returnTo={q.returnTo ?? null} />;
}
