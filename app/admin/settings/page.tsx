import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { SettingsPage } from "@/components/settings/settings-page";

// /admin/settings: the option administration (docs/settings.md). proxy.ts sends visitors
// without a session to /login and non-admins (role < 10) to /.
export async function generateMetadata() {
  const t = await getTranslations("settings");
  return { title: t("title") };
}

export default function Page() {
  return (
    <Suspense>
      <SettingsPage />
    </Suspense>
  );
}
