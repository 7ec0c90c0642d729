"use client";
// /user/reset: uses the mailed link (token and e-mail from the query, the e-mail read-only)
// and shows the new password read-only; clicking it copies it (docs/accounts-api.md).
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { api } from "@/lib/client/api";
import { copyText } from "@/lib/client/clipboard";
import { AuthCard } from "./auth-card";

export function ResetConfirmForm({ email, token }: { email: string; token: string }) {
  const t = useTranslations("reset");
  const [busy, setBusy] = useState(false);
  const [password, setPassword] = useState("");
  const passwordId = useId();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await api.post<string>("/api/user/reset", { email, token });
      setPassword(r.data);
      await copyText(r.data, "reset.copied");
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title={t("confirmTitle")}
      footer={
        <Link prefetch={false} href="/login" className="text-blue-600 hover:underline dark:text-blue-400">
          {t("toLogin")}
        </Link>
      }
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {!token && <Alert tone="warning">{t("noToken")}</Alert>}
        <Field label={t("email")} value={email} readOnly />
        {password ? (
          <div className="flex flex-col gap-1">
            <label htmlFor={passwordId} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
              {t("newPassword")}
            </label>
            <Input
              id={passwordId}
              value={password}
              readOnly
              className="w-full cursor-pointer font-mono"
              onClick={() => void copyText(password, "reset.copied")}
              data-testid="new-password"
            />
            <p className="text-xs text-zinc-500 dark:text-zinc-400">{t("newPasswordHint")}</p>
          </div>
        ) : (
          <Button type="submit" disabled={busy || !token || !email} className="justify-center">
            {t("confirmSubmit")}
          </Button>
        )}
      </form>
    </AuthCard>
  );
}
