"use client";
// The admin user editor's second-factor line (docs/two-factor.md, "Reset by the root"): TOTP
// on or off and the number of passkeys; the root can reset both for a user who lost them.
import { useTranslations } from "next-intl";
import useSWR from "swr";
import { useConfirm } from "@/components/forms/use-confirm";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { api, fetchData } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";

export function TwoFactorAdmin({ userId, viewerIsRoot }: { userId: number; viewerIsRoot: boolean }) {
  const t = useTranslations("twofa");
  const { data, mutate } = useSWR<{ enabled: boolean; passkey_count: number }>(`/api/user/${userId}/2fa`, fetchData);
  const { ask, dialog } = useConfirm({ title: t("resetTitle"), description: t("resetHelp"), action: t("reset"), danger: true });
  if (!data) return null;
  async function reset() {
    if (!(await ask())) return;
    try {
      const r = await api.del(`/api/user/${userId}/2fa`);
      toast.success({ text: r.message });
      void mutate();
    } catch {
      // reported by the API helper
    }
  }
  return (
    <div className="flex flex-wrap items-center justify-between gap-2" aria-label={t("title")}>
      <div className="flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
        <span className="font-medium">{t("totpTitle")}</span>
        <Badge color={data.enabled ? "green" : "gray"}>{data.enabled ? t("on") : t("off")}</Badge>
        <span>{t("passkeyCount", { count: data.passkey_count })}</span>
      </div>
      {viewerIsRoot && (data.enabled || data.passkey_count > 0) && (
        <Button variant="secondary" size="sm" onClick={reset}>
          {t("reset")}
        </Button>
      )}
      {dialog}
    </div>
  );
}
