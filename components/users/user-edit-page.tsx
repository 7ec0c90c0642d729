"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { Card, PageTitle } from "@/components/ui/card";
import { UserEditor } from "./user-editor";

// /user/edit/{id} (an admin editing someone) and /user/edit (oneself).
export function UserEditPage({ userId }: { userId?: number }) {
  const t = useTranslations("userEditor");
  const router = useRouter();
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-6">
      <PageTitle>{userId === undefined ? t("titleSelf") : t("title", { id: userId })}</PageTitle>
      <Card>
        <UserEditor
          userId={userId}
          onCancel={() => router.back()}
          onSaved={() => {
            if (userId !== undefined) router.push("/admin/users");
          }}
        />
      </Card>
    </div>
  );
}
