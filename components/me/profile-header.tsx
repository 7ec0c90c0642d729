"use client";
import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import { isRootRole } from "@/lib/client/navigation";
import type { User } from "@/lib/client/user";

export function ProfileHeader({ user }: { user: User }) {
  const t = useTranslations("me");
  const name = user.display_name || user.username;
  return (
    <div className="flex items-center gap-4">
      <span aria-hidden className="flex h-14 w-14 items-center justify-center rounded-full bg-blue-600 text-xl font-semibold text-white">
        {name.slice(0, 1).toUpperCase()}
      </span>
      <div className="flex flex-col gap-1">
        <div className="flex items-center gap-2">
          <span className="text-lg font-semibold">{name}</span>
          {isRootRole(user.role) && <Badge color="orange">{t("rootTag")}</Badge>}
        </div>
        <div className="flex items-center gap-2 text-sm text-zinc-500 dark:text-zinc-400">
          <span>@{user.username}</span>
          <span>ID {user.id}</span>
          <Badge color="blue">{t("groupTag", { group: user.group })}</Badge>
        </div>
      </div>
    </div>
  );
}
