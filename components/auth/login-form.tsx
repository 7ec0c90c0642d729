"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { reportInvalid } from "@/components/ui/form-error";
import { Field } from "@/components/ui/input";
import { useStatus } from "@/components/layout/providers";
import { api } from "@/lib/client/api";
import { safeReturnTo } from "@/lib/client/errors";
import { isBuilt } from "@/lib/client/navigation";
import { setLocalUser, type LocalUser } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import { checkLogin } from "@/lib/client/validation";
import { AuthCard } from "./auth-card";

// The super admin's factory password: logging in with it asks for a change at once.
const FACTORY_ROOT = { username: "root", password: "123456" };

export function LoginForm({ expired, returnTo }: { expired: boolean; returnTo: string | null }) {
  const t = useTranslations("login");
  const status = useStatus();
  const [form, setForm] = useState({ username: "", password: "" });
  const [busy, setBusy] = useState(false);
  const [factoryWarning, setFactoryWarning] = useState(false);
  const target = safeReturnTo(returnTo);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const invalid = checkLogin(form.username, form.password);
    if (invalid) return reportInvalid(invalid);
    setBusy(true);
    try {
      const r = await api.post<LocalUser>("/api/user/login", { username: form.username.trim(), password: form.password });
      setLocalUser(r.data);
      toast.success({ key: "login.success" });
      if (form.username.trim() === FACTORY_ROOT.username && form.password === FACTORY_ROOT.password) {
        setFactoryWarning(true);
        return;
      }
      // A full load: the server renders the shell for the new session.
      window.location.assign(target);
    } catch {
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title={t("title")}
      footer={
        <div className="flex justify-center gap-4">
          {!status.self_use_mode_enabled && (
            <Link href="/register" className="text-blue-600 hover:underline dark:text-blue-400">
              {t("toRegister")}
            </Link>
          )}
          {isBuilt("/reset") && (
            <Link href="/reset" className="text-blue-600 hover:underline dark:text-blue-400">
              {t("toReset")}
            </Link>
          )}
        </div>
      }
    >
      <form onSubmit={submit} className="flex flex-col gap-4">
        {expired && <Alert tone="warning">{t("expired")}</Alert>}
        <Field label={t("username")} value={form.username} onChange={(e) => setForm({ ...form, username: e.target.value })} autoComplete="username" />
        <Field
          label={t("password")}
          type="password"
          value={form.password}
          onChange={(e) => setForm({ ...form, password: e.target.value })}
          autoComplete="current-password"
        />
        <Button type="submit" disabled={busy} className="justify-center">
          {t("submit")}
        </Button>
      </form>
      <Dialog
        open={factoryWarning}
        onOpenChange={(open) => !open && window.location.assign(target)}
        title={t("factoryTitle")}
        description={t("factoryWarning")}
        footer={
          <>
            <Button variant="secondary" onClick={() => window.location.assign(target)}>
              {t("factoryLater")}
            </Button>
            <Button onClick={() => window.location.assign("/app/me")}>{t("factoryChange")}</Button>
          </>
        }
      />
    </AuthCard>
  );
}
