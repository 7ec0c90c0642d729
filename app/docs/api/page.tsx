import { getTranslations } from "next-intl/server";
import { ApiReferencePage } from "@/components/docs/api-reference-page";

export async function generateMetadata() {
  const t = await getTranslations("apiDocs");
  return { title: t("title") };
}

// /docs/api: the console and relay API reference (public; docs/api-reference.md)
export default function Page() {
  return <ApiReferencePage />;
}
