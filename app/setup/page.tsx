import { getTranslations } from "next-intl/server";
import { SetupForm } from "@/components/setup/setup-form";
import { PageTitle } from "@/components/ui/card";

export async function generateMetadata() {
  const t = await getTranslations("setup");
  return { title: t("title") };
}

export default async function SetupPage() {
  const t = await getTranslations("setup");
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8">
      <PageTitle>{t("title")}</PageTitle>
      <p className="mb-5 text-sm text-zinc-600 dark:text-zinc-400">{t("intro")}</p>
      <SetupForm />
    </div>
  );
}
