"use client";
// Log clean-up (docs/settings.md): deletes the usage logs older than a chosen time, one
// month ago by default, through DELETE /api/log/?target_timestamp= (unix seconds), and says
// how many rows went.
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useConfirm } from "@/components/forms";
import { Button } from "@/components/ui/button";
import { DateTimeField, UnixTimePicker } from "@/components/ui/date-time-picker";
import { api, ApiError } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";

/** One month before now, in unix seconds (the default of the picker). */
function monthAgo(): number {
  const d = new Date();
  d.setMonth(d.getMonth() - 1);
  return Math.floor(d.getTime() / 1000);
}

export function LogCleanup() {
  const t = useTranslations("settings.operation.cleanup");
  const [value, setValue] = useState<number | null>(monthAgo);
  const [busy, setBusy] = useState(false);
  const { ask, dialog } = useConfirm({ title: t("confirmTitle"), description: t("confirmText"), action: t("action"), danger: true });

  const run = async () => {
    // cleared picker: the spec's "please select log time" (the server refuses it too)
    if (value === null) {
      toast.error({ key: "settings.operation.cleanup.selectTime" });
      return;
    }
    if (!(await ask())) return;
    setBusy(true);
    try {
      const res = await api.del<number>(`/api/log/?target_timestamp=${value}`);
      toast.success({ key: "settings.operation.cleanup.cleared", values: { n: Number(res.data) || 0 } });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-2 border-t border-zinc-200 pt-4 dark:border-zinc-800">
      <DateTimeField label={t("label")}>
        {(id) => (
          <div className="flex flex-wrap items-center gap-2">
            <UnixTimePicker id={id} label={t("label")} value={value} onChange={setValue} className="w-64" />
            <Button variant="danger" disabled={busy} onClick={run}>
              {t("action")}
            </Button>
          </div>
        )}
      </DateTimeField>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">{t("hint")}</p>
      {dialog}
    </div>
  );
}
