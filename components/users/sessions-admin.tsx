"use client";
// The admin user editor's sessions line (docs/accounts-api.md, "Sessions"): ends every console
// session of the user, behind a confirmation; the user must sign in again.
import { LogOut } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useConfirm } from "@/components/forms/use-confirm";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";

export function SessionsAdmin({ userId }: { userId: number }) {
  const t = useTranslations("sessions");
  const [busy, setBusy] = useState(false);
  const { ask, dialog } = useConfirm({ title: t("adminEndTitle"), description: t("adminEndHelp"), action: t("adminEnd"), danger: true });
  async function endAll() {
    if (!(await ask())) return;
    setBusy(true);
    try {
      const r = await api.post<{ ended: number }>(`/api/user/${userId}/sessions/revoke_all`);
      toast.success({ key: "sessions.adminEnded", values: { count: r.data.ended } });
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="flex flex-wrap items-center justify-between gap-2" aria-label={t("title")}>
      <div className="flex flex-col text-sm text-zinc-700 dark:text-zinc-300">
        <span className="font-medium">{t("title")}</span>
        <span className="text-xs text-zinc-500 dark:text-zinc-400">{t("adminHint")}</span>
      </div>
      <Button variant="secondary" size="sm" disabled={busy} onClick={() => void endAll()}>
        <LogOut className="size-4" aria-hidden />
        {t("adminEnd")}
      </Button>
      {dialog}
    </div>
  );
}
