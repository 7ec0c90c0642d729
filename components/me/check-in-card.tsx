"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import useSWR from "swr";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useQuotaDisplay } from "@/components/layout/providers";
import { api } from "@/lib/client/api";
import { renderQuota } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";
import { useTurnstile } from "@/components/auth/turnstile";

// Daily check-in (shown only when the site enables it).
export function CheckInCard({ onCheckedIn }: { onCheckedIn: () => void }) {
  const t = useTranslations("me.checkIn");
  const display = useQuotaDisplay();
  const { data, mutate } = useSWR<{ can_check_in: boolean }>("/api/user/check_in_status");
  const [busy, setBusy] = useState(false);
  const [won, setWon] = useState<number | null>(null);
  const human = useTurnstile();

  async function checkIn() {
    if (!human.ready()) return;
    setBusy(true);
    try {
      const r = await api.post<{ quota: number }>(`/api/user/check_in${human.param(true)}`, {}, { failed: "me.checkIn.failed" });
      setWon(r.data.quota);
      toast.success({ key: "me.checkIn.won", values: { quota: renderQuota(r.data.quota, display) } });
      await mutate({ can_check_in: false }, { revalidate: false });
      onCheckedIn();
    } catch {
      // reported by the API helper
    } finally {
      human.reset();
      setBusy(false);
    }
  }

  const can = data?.can_check_in === true;
  return (
    <Card title={t("title")}>
      <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
        {won !== null ? t("wonToday", { quota: renderQuota(won, display) }) : can ? t("available") : data ? t("already") : t("loading")}
      </p>
      {can && human.widget}
      <Button onClick={checkIn} disabled={!can || busy}>
        {can ? t("button") : t("already")}
      </Button>
    </Card>
  );
}
