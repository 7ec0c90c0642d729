"use client";
// The SMTP section's "send test mail" (docs/mail.md, "Test mail"): mails the root's own
// address, or the one typed here, with the SAVED settings (save first to test a change).
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useOptionsState } from "@/components/forms";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";

export function TestMail() {
  const t = useTranslations("mail");
  const { writable } = useOptionsState();
  const [to, setTo] = useState("");
  const [busy, setBusy] = useState(false);
  if (!writable.SMTPServer) return null;
  async function send() {
    setBusy(true);
    try {
      const r = await api.post("/api/option/test_mail", { to: to.trim() });
      toast.success({ text: r.message });
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <Input
        type="email"
        value={to}
        onChange={(e) => setTo(e.target.value)}
        placeholder={t("testTo")}
        aria-label={t("testTo")}
        className="w-64 max-w-full"
        title={t("testHint")}
      />
      <Button variant="secondary" onClick={send} disabled={busy}>
        {t("testButton")}
      </Button>
      <span className="text-xs text-zinc-500 dark:text-zinc-400">{t("testHint")}</span>
    </>
  );
}
