"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useState } from "react";
import { FormProvider } from "react-hook-form";
import { FormText, toastFirstError, useRuleForm } from "@/components/forms";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { useStatus } from "@/components/layout/providers";
import { api } from "@/lib/client/api";
import { safeReturnTo } from "@/lib/client/errors";
import { setLocalUser, type LocalUser } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import { loginBody } from "@/lib/users/field-rules";
import { AuthCard } from "./auth-card";

// The super admin's factory password: logging in with it asks for a change at once.
const FACTORY_ROOT = { username: "root", password: "123456" };

type LoginValues = { username: string; password: string };

export function LoginForm({ expired, returnTo }: { expired: boolean; returnTo: string | null }) {
  const t = useTranslations("login");
  const status = useStatus();
  const methods = useRuleForm<LoginValues>(loginBody, { username: "", password: "" });
  const [busy, setBusy] = useState(false);
  const [factoryWarning, setFactoryWarning] = useState(false);
  const target = safeReturnTo(returnTo);

  async function submit(form: LoginValues) {
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
          <Link href="/reset" className="text-blue-600 hover:underline dark:text-blue-400">
            {t("toReset")}
          </Link>
        </div>
      }
    >
      <FormProvider {...methods}>
        <form onSubmit={methods.handleSubmit(submit, toastFirstError)} noValidate className="flex flex-col gap-4">
          {expired && <Alert tone="warning">{t("expired")}</Alert>}
          <FormText name="username" label={t("username")} autoComplete="username" />
          <FormText name="password" label={t("password")} type="password" autoComplete="current-password" />
          <Button type="submit" disabled={busy} className="justify-center">
            {t("submit")}
          </Button>
        </form>
      </FormProvider>
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
