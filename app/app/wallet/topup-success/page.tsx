import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { CircleCheck } from "lucide-react";

// Where the payment provider sends the payer back (docs/payments.md): the balance is credited
// by the provider's signed callback, not by this page.
export async function generateMetadata() {
  const t = await getTranslations("payments");
  return { title: t("successTitle") };
}

export default async function Page() {
  const t = await getTranslations("payments");
  return (
    <div className="mx-auto flex w-full max-w-lg flex-col items-center gap-4 px-4 py-16 text-center">
      <CircleCheck aria-hidden className="h-14 w-14 text-green-600 dark:text-green-500" />
      <h1 className="text-xl font-semibold text-zinc-900 dark:text-zinc-100">{t("successTitle")}</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("successText")}</p>
      <div className="flex gap-3">
        <Link
          prefetch={false}
          href="/app/wallet"
          className="inline-flex h-9 items-center rounded-md bg-blue-600 px-4 text-sm font-medium text-white hover:bg-blue-700 dark:bg-blue-500 dark:hover:bg-blue-600"
        >
          {t("toWallet")}
        </Link>
        <Link
          prefetch={false}
          href="/"
          className="inline-flex h-9 items-center rounded-md border border-zinc-300 px-4 text-sm font-medium text-zinc-800 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
        >
          {t("toHome")}
        </Link>
      </div>
    </div>
  );
}
