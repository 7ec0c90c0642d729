"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Dropdown, DropdownItem, DropdownLabel, DropdownSeparator } from "@/components/ui/dropdown";
import { api } from "@/lib/client/api";
import { clearLocalUser } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import { useSessionUser, useStatus } from "./providers";

// Ends the session on the server, forgets the local user and goes to the login page.
export async function logout() {
  try {
    await api.get("/api/user/logout", { quiet: true });
  } finally {
    clearLocalUser();
    window.location.assign("/login");
  }
}

export function UserMenu() {
  const t = useTranslations("shell");
  const user = useSessionUser();
  const status = useStatus();
  const router = useRouter();
  if (!user) {
    return (
      <div className="flex items-center gap-1">
        <Link
          prefetch={false}
          href="/login"
          className="rounded-md px-3 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800"
        >
          {t("login")}
        </Link>
        {!status.self_use_mode_enabled && (
          <Link prefetch={false} href="/register" className="rounded-md bg-blue-600 px-3 py-1.5 text-sm text-white hover:bg-blue-700">
            {t("register")}
          </Link>
        )}
      </div>
    );
  }
  const name = user.display_name || user.username;
  return (
    <Dropdown
      label={t("userMenu")}
      trigger={
        <Button variant="ghost" size="sm" aria-label={t("userMenu")}>
          <span className="flex h-6 w-6 items-center justify-center rounded-full bg-blue-600 text-xs text-white" aria-hidden>
            {name.slice(0, 1).toUpperCase()}
          </span>
          <span className="hidden max-w-32 truncate sm:inline">{name}</span>
        </Button>
      }
    >
      <DropdownLabel>{user.username}</DropdownLabel>
      <DropdownSeparator />
      <DropdownItem onSelect={() => router.push("/app/me")}>{t("personalSettings")}</DropdownItem>
      <DropdownItem onSelect={() => router.push("/app/tokens")}>{t("tokens")}</DropdownItem>
      <DropdownItem onSelect={() => router.push("/docs/api")}>{t("apiReference")}</DropdownItem>
      <DropdownSeparator />
      <DropdownItem
        onSelect={() => {
          toast.success({ key: "shell.loggedOut" });
          void logout();
        }}
      >
        {t("logout")}
      </DropdownItem>
    </Dropdown>
  );
}
