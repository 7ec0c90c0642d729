"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { reportInvalid } from "@/components/ui/form-error";
import { Field } from "@/components/ui/input";
import { useStatus } from "@/components/layout/providers";
import { api } from "@/lib/client/api";
import { readItem, STORAGE_KEYS, writeItem } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import { checkEmailIfGiven, checkRegister, USERNAME_MAX } from "@/lib/client/validation";
import { AuthCard } from "./auth-card";

export function RegisterForm({ aff }: { aff: string | null }) {
  const t = useTranslations("register");
  const status = useStatus();
  const [form, setForm] = useState({ username: "", password: "", password2: "", email: "" });
  const [busy, setBusy] = useState(false);

  // The invitation code survives a detour (to the login page and back) in localStorage.
  useEffect(() => {
    if (aff) writeItem(STORAGE_KEYS.aff, aff);
  }, [aff]);

  const closed = status.self_use_mode_enabled ? t("closedSelfUse") : !status.register_enabled ? t("closed") : null;
  if (closed) {
    return (
      <AuthCard
        title={t("title")}
        footer={
          <Link href="/login" className="text-blue-600 hover:underline dark:text-blue-400">
            {t("toLogin")}
          </Link>
        }
      >
        <Alert tone="warning">{closed}</Alert>
      </AuthCard>
    );
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const invalid = checkRegister(form) ?? checkEmailIfGiven(form.email);
    if (invalid) return reportInvalid(invalid);
    setBusy(true);
    try {
      const affCode = aff ?? readItem(STORAGE_KEYS.aff) ?? undefined;
      await api.post("/api/user/register", { ...form, username: form.username.trim(), email: form.email.trim(), aff_code: affCode });
      toast.success({ key: "register.success" });
      window.location.assign("/login");
    } catch {
      setBusy(false);
    }
  }

  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  return (
    <AuthCard
      title={t("title")}
      footer={
        <>
          {t("haveAccount")}{" "}
          <Link href="/login" className="text-blue-600 hover:underline dark:text-blue-400">
            {t("toLogin")}
          </Link>
        </>
      }
    >
      <form onSubmit={submit} className="flex flex-col gap-4">
        {!status.password_register_enabled && <Alert tone="warning">{t("passwordRegisterDisabled")}</Alert>}
        <Field
          label={t("username")}
          value={form.username}
          onChange={set("username")}
          maxLength={USERNAME_MAX}
          placeholder={t("usernamePlaceholder")}
          autoComplete="username"
        />
        <Field
          label={t("password")}
          type="password"
          value={form.password}
          onChange={set("password")}
          placeholder={t("passwordPlaceholder")}
          autoComplete="new-password"
        />
        <Field label={t("password2")} type="password" value={form.password2} onChange={set("password2")} autoComplete="new-password" />
        <Field label={t("email")} type="email" value={form.email} onChange={set("email")} placeholder={t("emailPlaceholder")} autoComplete="email" />
        {aff && <p className="text-xs text-zinc-500 dark:text-zinc-400">{t("invitedBy", { code: aff })}</p>}
        <Button type="submit" disabled={busy} className="justify-center">
          {t("submit")}
        </Button>
      </form>
    </AuthCard>
  );
}
