import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { AdminContent } from "@/components/content/admin-content";
import { BaseUrl } from "@/components/content/base-url";
import { ensureReady } from "@/lib/boot";
import { formatTimestamp } from "@/lib/client/format";
import { getOption } from "@/lib/options/store";
import { siteStatus } from "@/lib/status/site-status";
import { shellUser } from "@/lib/http/shell-user";
import { ROLE } from "@/lib/auth/roles";
import { FIRST_STEPS, firstSteps } from "@/lib/setup/first-steps";
import { FirstStepsCard } from "@/components/setup/first-steps";

// The home page: the administrator's HomePageContent, or a default welcome; an administrator
// sees their first steps above it until all are done (docs/console-ui.md, "First steps").
export default async function Home() {
  await ensureReady();
  const user = await shellUser();
  const steps = user && user.role >= ROLE.admin ? await firstSteps(user.id) : null;
  const checklist = steps && !FIRST_STEPS.every((s) => steps[s]) && (
    <div className="px-4">
      <FirstStepsCard steps={steps} />
    </div>
  );
  const content = getOption("HomePageContent");
  if (content.trim())
    return (
      <>
        {checklist}
        <AdminContent content={content} title={(await getTranslations("home"))("contentTitle")} />
      </>
    );
  const [t, status] = await Promise.all([getTranslations("home"), siteStatus()]);
  const name = status.system_name || t("defaultName");
  return (
    <>
      {checklist}
      <div className="mx-auto flex max-w-3xl flex-col items-center gap-6 px-4 py-20 text-center">
        <h1 className="text-4xl font-bold tracking-tight text-zinc-900 dark:text-zinc-100">{t("welcome", { name })}</h1>
        <p className="max-w-xl text-lg text-zinc-600 dark:text-zinc-400">{t("tagline")}</p>
        <div className="flex gap-3">
          <Link
            prefetch={false}
            href={user ? "/app/tokens" : "/login"}
            className="rounded-md bg-blue-600 px-5 py-2.5 text-sm font-medium text-white hover:bg-blue-700"
          >
            {user ? t("toConsole") : t("getStarted")}
          </Link>
          <Link
            prefetch={false}
            href="/pricing"
            className="rounded-md border border-zinc-300 px-5 py-2.5 text-sm font-medium text-zinc-800 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
          >
            {t("pricing")}
          </Link>
        </div>
        <dl className="mt-6 grid w-full max-w-lg grid-cols-2 gap-4 rounded-lg border border-zinc-200 bg-white p-5 text-left text-sm dark:border-zinc-800 dark:bg-zinc-900">
          <div>
            <dt className="text-zinc-500 dark:text-zinc-400">{t("version")}</dt>
            <dd className="font-medium">{status.version}</dd>
          </div>
          <div>
            <dt className="text-zinc-500 dark:text-zinc-400">{t("startTime")}</dt>
            <dd className="font-medium">{formatTimestamp(status.start_time)}</dd>
          </div>
          <div className="col-span-2">
            <dt className="text-zinc-500 dark:text-zinc-400">{t("baseUrl")}</dt>
            <dd className="font-mono font-medium break-all">
              <BaseUrl serverAddress={status.server_address} />
            </dd>
          </div>
        </dl>
      </div>
    </>
  );
}
