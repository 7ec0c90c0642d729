import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { TaskLogsPage } from "@/components/tasks/task-logs-page";
import { getBool } from "@/lib/options/store";
import { ensureReady } from "@/lib/boot";

export async function generateMetadata() {
  const t = await getTranslations("tasks");
  return { title: t("taskTitle") };
}

// TaskEnabled gates the page as it gates the sidebar entry and the task routes.
export default async function Page() {
  await ensureReady();
  if (!getBool("TaskEnabled")) notFound();
  return <TaskLogsPage />;
}
