"use client";
// The login page's second step (docs/two-factor.md, "Sign-in"): after a password login that
// answered {require_2fa: true}, the TOTP code or a backup code completes the sign-in
// (POST /api/user/login/2fa); the pending step lives five minutes in this browser.
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/input";
import { CODE_INPUT, toastCodeFormat } from "@/components/me/fresh-factor";
import { api } from "@/lib/client/api";
import type { LocalUser } from "@/lib/client/storage";

export function TwoFactorStep({ onDone, onBack }: { onDone: (user: LocalUser) => void; onBack: () => void }) {
  const t = useTranslations("twofa");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!CODE_INPUT.test(code.trim())) return toastCodeFormat(t("codeFormat"));
    setBusy(true);
    try {
      const r = await api.post<LocalUser>("/api/user/login/2fa", { code: code.trim() });
      onDone(r.data);
    } catch {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label={t("loginStepTitle")}>
      <div className="flex flex-col gap-1">
        <h2 className="font-medium text-zinc-900 dark:text-zinc-100">{t("loginStepTitle")}</h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("loginStepHelp")}</p>
      </div>
      <Field label={t("codeLabel")} hint={t("codeHint")} value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" autoFocus />
      <Button type="submit" disabled={busy} className="justify-center">
        {t("verify")}
      </Button>
      <Button variant="ghost" onClick={onBack} className="justify-center">
        {t("back")}
      </Button>
    </form>
  );
}
