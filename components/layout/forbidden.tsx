// A console page the signed-in admin's permission set does not open (docs/permissions.md, "The
// console"): the page's title and the console's "insufficient permission" line, instead of a
// form the server would refuse to save. The page checks the permission on the server.
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Alert, PageTitle } from "@/components/ui/card";

export function Forbidden({ title }: { title: ReactNode }) {
  const t = useTranslations("errors");
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6" data-testid="forbidden">
      <PageTitle>{title}</PageTitle>
      <Alert tone="error">{t("forbidden")}</Alert>
    </div>
  );
}
