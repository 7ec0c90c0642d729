"use client";
// Log clean-up (docs/settings.md): deletes the usage logs older than a chosen time, one
// month ago by default, through DELETE /api/log/?target_timestamp= (unix seconds), and says
// how many rows went.
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { useConfirm } from "@/components/forms";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { api, ApiError } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";

/** The value of a datetime-local input for a date, in the browser's time zone. */
export function toLocalInput(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

function monthAgo(): string {
  const d = new Date();
  d.setMonth(d.getMonth() - 1);
  return toLocalInput(d);
}

export function LogCleanup() {
  const t = useTranslations("settings.operation.cleanup");
  const id = useId();
  const [value, setValue] = useState(monthAgo);
  const [busy, setBusy] = useState(false);
  const { ask, dialog } = useConfirm({ title: t("confirmTitle"), description: t("confirmText"), action: t("action"), danger: true });

  const run = async () => {
    const ms = value ? new Date(value).getTime() : NaN;
    if (!Number.isFinite(ms)) {
      toast.error({ key: "settings.operation.cleanup.selectTime" });
      return;
    }
    if (!(await ask())) return;
    setBusy(true);
    try {
      const res = await api.del<number>(`/api/log/?target_timestamp=${Math.floor(ms / 1000)}`);
      toast.success({ key: "settings.operation.cleanup.cleared", values: { n: Number(res.data) || 0 } });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-2 border-t border-zinc-200 pt-4 dark:border-zinc-800">
      <label htmlFor={id} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
        {t("label")}
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <Input id={id} type="datetime-local" value={value} onChange={(e) => setValue(e.target.value)} className="w-60 dark:[color-scheme:dark]" />
        <Button variant="danger" disabled={busy} onClick={run}>
          {t("action")}
        </Button>
      </div>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">{t("hint")}</p>
      {dialog}
    </div>
  );
}
