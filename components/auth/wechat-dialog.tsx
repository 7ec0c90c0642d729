"use client";
// The WeChat dialog (docs/oauth.md, "WeChat"): the official account's QR code, and the
// verification code it answers after a scan (valid three minutes), for sign-in or binding.
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/input";
import { toast } from "@/lib/client/toast";

export function WeChatDialog({
  open,
  onOpenChange,
  qrcode,
  onCode,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  qrcode: string;
  onCode: (code: string) => Promise<void>;
}) {
  const t = useTranslations("oauth");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  async function submit() {
    if (!code.trim()) {
      toast.error({ key: "oauth.codeRequired" });
      return;
    }
    setBusy(true);
    try {
      await onCode(code.trim());
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("wechatTitle")}
      description={t("wechatHint")}
      footer={
        <Button onClick={submit} disabled={busy}>
          {t("wechatSubmit")}
        </Button>
      }
    >
      {/* eslint-disable-next-line @next/next/no-img-element -- an address the admin typed, not a local asset */}
      {qrcode && <img src={qrcode} alt={t("wechatQr")} className="mx-auto h-48 w-48" />}
      <Field label={t("wechatCode")} value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="one-time-code" maxLength={64} />
    </Dialog>
  );
}
