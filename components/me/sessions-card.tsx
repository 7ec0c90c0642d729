"use client";
// The sessions card of /app/me (docs/accounts-api.md, "Sessions"): every place the user is
// signed in (device from the user agent, address, created, last seen; this device marked),
// each with "end", and "sign out everywhere else" behind a confirmation. Ending this
// device's session signs the user out here.
import { LogOut, Monitor, Smartphone } from "lucide-react";
import { useTranslations } from "next-intl";
import useSWR from "swr";
import { useConfirm } from "@/components/forms/use-confirm";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { api, fetchData } from "@/lib/client/api";
import { formatTimestamp } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";

export type SessionRow = { id: string; device: string; user_agent: string; ip: string; created_at: number; last_seen_at: number; current: boolean };

const PHONE = /\b(?:iOS|Android|HarmonyOS)\b/;

export function SessionsCard() {
  const t = useTranslations("sessions");
  const { data: sessions, mutate } = useSWR<SessionRow[]>("/api/user/sessions", fetchData);
  const confirmOthers = useConfirm({ title: t("endOthersTitle"), description: t("endOthersHelp"), action: t("endOthers"), danger: true });
  const confirmOne = useConfirm({ title: t("endOneTitle"), description: t("endOneHelp"), action: t("end"), danger: true });
  const confirmCurrent = useConfirm({ title: t("endCurrentTitle"), description: t("endCurrentHelp"), action: t("end"), danger: true });
  const others = (sessions ?? []).filter((s) => !s.current).length;

  async function endOne(s: SessionRow) {
    if (!(await (s.current ? confirmCurrent : confirmOne).ask())) return;
    try {
      await api.del(`/api/user/sessions/${s.id}`);
      if (s.current) {
        window.location.assign("/login");
        return;
      }
      toast.success({ key: "sessions.ended" });
      void mutate();
    } catch {
      // reported by the API helper
    }
  }
  async function endOthers() {
    if (!(await confirmOthers.ask())) return;
    try {
      const r = await api.post<{ ended: number }>("/api/user/sessions/revoke_all");
      toast.success({ key: "sessions.endedOthers", values: { count: r.data.ended } });
      void mutate();
    } catch {
      // reported by the API helper
    }
  }

  return (
    <Card
      title={t("title")}
      actions={
        <Button variant="secondary" size="sm" disabled={others === 0} onClick={() => void endOthers()}>
          <LogOut className="size-4" aria-hidden />
          {t("endOthers")}
        </Button>
      }
    >
      <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">{t("help")}</p>
      {!sessions && <p className="text-sm text-zinc-500">{t("loading")}</p>}
      {sessions && (
        <ul
          className="flex flex-col divide-y divide-zinc-100 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          aria-label={t("title")}
        >
          {sessions.map((s) => {
            const Icon = PHONE.test(s.device) ? Smartphone : Monitor;
            const device = s.device || t("unknownDevice");
            return (
              <li key={s.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm" data-session={s.current ? "current" : "other"}>
                <div className="flex min-w-0 items-start gap-2">
                  <Icon className="mt-0.5 size-4 shrink-0 text-zinc-500 dark:text-zinc-400" aria-hidden />
                  <div className="flex min-w-0 flex-col">
                    <span className="flex flex-wrap items-center gap-2 font-medium text-zinc-900 dark:text-zinc-100" title={s.user_agent}>
                      <span className="truncate">{device}</span>
                      {s.current && <Badge color="green">{t("thisDevice")}</Badge>}
                    </span>
                    <span className="text-xs break-all text-zinc-500 dark:text-zinc-400">
                      {s.ip || t("unknownAddress")} · {t("createdAt", { time: formatTimestamp(s.created_at) })} ·{" "}
                      {t("lastSeen", { time: formatTimestamp(s.last_seen_at) })}
                    </span>
                  </div>
                </div>
                <Button variant="ghost" size="sm" onClick={() => void endOne(s)} aria-label={t("endNamed", { device })}>
                  {t("end")}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {confirmOthers.dialog}
      {confirmOne.dialog}
      {confirmCurrent.dialog}
    </Card>
  );
}
