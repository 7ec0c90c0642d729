import { getTranslations } from "next-intl/server";
import { UserEditPage } from "@/components/users/user-edit-page";

export async function generateMetadata() {
  const t = await getTranslations("userEditor");
  return { title: t("titleSelf") };
}

export default function Page() {
  return <UserEditPage />;
}
