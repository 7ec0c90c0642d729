"use client";
// /reset: asks for a password reset link by e-mail (docs/accounts-api.md, "Password reset").
// After a submit the button waits out the 30-second cooldown.
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { reportInvalid } from "@/components/ui/form-error";
import { Field } from "@/components/ui/input";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import { AuthCard } from "./auth-card";
import { useCountdown } from "./send-code-button";
import { useTurnstile } from "./turnstile";

export function ResetRequestForm() {
  const t = useTranslations("reset");
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const { left, start } = useCountdown();
  const human = useTurnstile();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!email.trim()) return reportInvalid("emailRequired");
    if (!human.ready()) return;
    setBusy(true);
    try {
      const r = await api.get(`/api/reset_password?email=${encodeURIComponent(email.trim())}${human.param(false)}`);
      toast.success({ text: r.message });
      start();
    } catch {
      // reported by the API helper
    } finally {
      human.reset();
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title={t("title")}
      footer={
        <Link prefetch={false} href="/login" className="text-blue-600 hover:underline dark:text-blue-400">
          {t("toLogin")}
        </Link>
      }
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("help")}</p>
        <Field
          label={t("email")}
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoComplete="email"
          placeholder={t("emailPlaceholder")}
        />
        {human.widget}
        <Button type="submit" disabled={busy || left > 0} className="justify-center">
          {left > 0 ? t("retryIn", { seconds: left }) : t("submit")}
        </Button>
      </form>
    </AuthCard>
  );
}
