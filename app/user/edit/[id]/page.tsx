import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { UserEditPage } from "@/components/users/user-edit-page";

export async function generateMetadata() {
  const t = await getTranslations("userEditor");
  return { title: t("titleSelf") };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) notFound();
  return <UserEditPage userId={n} />;
}
