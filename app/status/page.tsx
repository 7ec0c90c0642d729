// /status (public; docs/performance.md, "Status page"): shown when StatusPageEnabled is on, a
// 404 otherwise, as its data GET /api/status/models.
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { ensureReady } from "@/lib/boot";
import { getBool } from "@/lib/options/store";
import { readStatusModels } from "@/lib/perf/status-models";
import { StatusPage } from "@/components/perf/status-page";

export const dynamic = "force-dynamic";

export async function generateMetadata() {
  const t = await getTranslations("statusPage");
  return { title: t("title") };
}

export default async function Page() {
  await ensureReady();
  if (!getBool("StatusPageEnabled")) notFound();
  return <StatusPage data={await readStatusModels()} />;
}
