// /app/wallet: the statement only in this branch; the wallet page of the codes work takes its
// place at the merge and mounts <StatementSection/> in it (docs/statement.md).
import { getTranslations } from "next-intl/server";
import { PageTitle } from "@/components/ui/card";
import { StatementSection } from "@/components/wallet/statement-section";

export async function generateMetadata() {
  const t = await getTranslations("statement");
  return { title: t("title") };
}

export default async function Page() {
  const t = await getTranslations("statement");
  return (
    <div className="mx-auto w-full max-w-[90rem] px-4 py-6">
      <PageTitle>{t("title")}</PageTitle>
      <StatementSection />
    </div>
  );
}
