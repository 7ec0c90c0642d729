// The administrator's first steps on the home page (docs/console-ui.md, "First steps"): four
// links, each ticked once the data shows it done (lib/setup/first-steps.ts); hidden when all
// are done. A server component: the ticks are read when the page is drawn.
import { CheckCircle2, Circle } from "lucide-react";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { cn } from "@/components/ui/cn";
import { FIRST_STEPS, type FirstSteps } from "@/lib/setup/first-steps";

const HREF: Record<keyof FirstSteps, string> = {
  channel: "/channel/add",
  tested: "/admin/channels",
  token: "/app/tokens",
  playground: "/playground",
};

export async function FirstStepsCard({ steps }: { steps: FirstSteps }) {
  const t = await getTranslations("home.firstSteps");
  const done = FIRST_STEPS.filter((s) => steps[s]).length;
  return (
    <section
      aria-labelledby="first-steps-title"
      className="mx-auto mt-6 w-full max-w-3xl rounded-lg border border-blue-200 bg-blue-50/60 p-5 text-left dark:border-blue-900 dark:bg-blue-950/30"
    >
      <header className="mb-3 flex items-baseline justify-between gap-3">
        <h2 id="first-steps-title" className="text-base font-semibold text-zinc-900 dark:text-zinc-100">
          {t("title")}
        </h2>
        <span className="text-sm text-zinc-600 dark:text-zinc-400">{t("progress", { done, total: FIRST_STEPS.length })}</span>
      </header>
      <ol className="flex flex-col gap-2">
        {FIRST_STEPS.map((s) => (
          <li key={s} data-step={s} data-done={steps[s]} className="flex items-start gap-2.5">
            {steps[s] ? (
              <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-green-600 dark:text-green-400" aria-label={t("done")} />
            ) : (
              <Circle className="mt-0.5 h-5 w-5 shrink-0 text-zinc-400 dark:text-zinc-500" aria-label={t("todo")} />
            )}
            <div className="min-w-0">
              <Link
                prefetch={false}
                href={HREF[s]}
                className={cn(
                  "font-medium text-blue-700 underline-offset-2 hover:underline dark:text-blue-300",
                  steps[s] && "text-zinc-500 line-through dark:text-zinc-400",
                )}
              >
                {t(`${s}.title`)}
              </Link>
              <p className="text-sm text-zinc-600 dark:text-zinc-400">{t(`${s}.hint`)}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
