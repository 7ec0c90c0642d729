import { getTranslations } from "next-intl/server";
import { AdminContent } from "@/components/content/admin-content";
import { Card, PageTitle } from "@/components/ui/card";
import { ensureReady } from "@/lib/boot";
import { getOption } from "@/lib/options/store";
import { siteStatus } from "@/lib/status/site-status";

export async function generateMetadata() {
  const t = await getTranslations("about");
  return { title: t("title") };
}

// The administrator's About content, or a default that says how to set it.
export default async function About() {
  await ensureReady();
  const content = getOption("About");
  if (content.trim()) return <AdminContent content={content} title={(await getTranslations("about"))("title")} />;
  const [t, status] = await Promise.all([getTranslations("about"), siteStatus()]);
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8">
      <PageTitle>{t("title")}</PageTitle>
      <Card>
        <p className="mb-3 text-zinc-700 dark:text-zinc-300">{t("defaultNotice")}</p>
        <p className="text-sm text-zinc-500 dark:text-zinc-400">{t("project", { name: status.system_name, version: status.version })}</p>
      </Card>
    </div>
  );
}
