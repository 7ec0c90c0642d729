import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { DrawingLogsPage } from "@/components/tasks/drawing-logs-page";
import { getBool } from "@/lib/options/store";
import { ensureReady } from "@/lib/boot";

export async function generateMetadata() {
  const t = await getTranslations("tasks");
  return { title: t("drawingTitle") };
}

// DrawingEnabled gates the page as it gates the sidebar entry and the /mj routes.
export default async function Page() {
  await ensureReady();
  if (!getBool("DrawingEnabled")) notFound();
  return <DrawingLogsPage />;
}
