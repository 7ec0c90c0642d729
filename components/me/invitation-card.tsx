"use client";
import { useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";
import useSWR from "swr";
import { QuotaInput } from "@/components/forms/quota-input";
import { Button } from "@/components/ui/button";
import { Card, Stat } from "@/components/ui/card";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { reportInvalid } from "@/components/ui/form-error";
import { Input } from "@/components/ui/input";
import { useQuotaDisplay, useStatus } from "@/components/layout/providers";
import { api } from "@/lib/client/api";
import { copyText } from "@/lib/client/clipboard";
import { renderQuota } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";
import type { User } from "@/lib/client/user";
import { checkTransfer } from "@/lib/client/validation";

function TransferDialog({ user, open, onOpenChange, onDone }: { user: User; open: boolean; onOpenChange: (o: boolean) => void; onDone: () => void }) {
  const t = useTranslations("me.invite");
  const display = useQuotaDisplay();
  const [amount, setAmount] = useState(String(user.aff_quota));
  const [busy, setBusy] = useState(false);
  const amountId = useId();
  useEffect(() => setAmount(String(user.aff_quota)), [user.aff_quota, open]);

  async function transfer() {
    const quota = /^\d+$/.test(amount) ? Number(amount) : NaN;
    const invalid = checkTransfer(quota, display.quotaPerUnit);
    if (invalid) return reportInvalid(invalid, { min: renderQuota(display.quotaPerUnit, display) });
    setBusy(true);
    try {
      const r = await api.post("/api/user/aff_transfer", { quota });
      toast.success(r.message ? { text: r.message } : { key: "me.invite.transferred" });
      onOpenChange(false);
      onDone();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("transferTitle")}
      footer={<DialogActions cancel={t("cancel")} onCancel={() => onOpenChange(false)} action={t("transfer")} onAction={transfer} busy={busy} />}
    >
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("available", { quota: renderQuota(user.aff_quota, display) })}</p>
      <div className="flex flex-col gap-1">
        <label htmlFor={amountId} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
          {t("amount")}
        </label>
        <QuotaInput id={amountId} value={amount} onChange={setAmount} />
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{t("amountHint", { min: renderQuota(display.quotaPerUnit, display) })}</p>
      </div>
    </Dialog>
  );
}

export function InvitationCard({ user, onChanged }: { user: User; onChanged: () => void }) {
  const t = useTranslations("me.invite");
  const display = useQuotaDisplay();
  const { data: code } = useSWR<string>("/api/user/aff");
  const status = useStatus();
  const [origin, setOrigin] = useState("");
  const [open, setOpen] = useState(false);
  // The site's public address (ServerAddress) when the root set one, else this page's origin.
  useEffect(() => setOrigin(status.server_address || window.location.origin), [status.server_address]);
  const link = code && origin ? `${origin}/register?aff=${code}` : "";
  return (
    <Card title={t("title")}>
      <div className="mb-4 grid grid-cols-3 gap-4">
        <Stat label={t("pending")} value={renderQuota(user.aff_quota, display)} />
        <Stat label={t("total")} value={renderQuota(user.aff_history_quota, display)} />
        <Stat label={t("count")} value={user.aff_count} />
      </div>
      <Button variant="secondary" size="sm" className="mb-4" disabled={user.aff_quota <= 0} onClick={() => setOpen(true)}>
        {t("transferButton")}
      </Button>
      <label className="mb-1 block text-sm font-medium text-zinc-700 dark:text-zinc-300" htmlFor="aff-link">
        {t("link")}
      </label>
      <div className="flex gap-2">
        <Input id="aff-link" readOnly value={link} className="min-w-0 flex-1" />
        <Button onClick={() => link && copyText(link, "me.invite.copied")} disabled={!link}>
          {t("copy")}
        </Button>
      </div>
      <TransferDialog user={user} open={open} onOpenChange={setOpen} onDone={onChanged} />
    </Card>
  );
}
