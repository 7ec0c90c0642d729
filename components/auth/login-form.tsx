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
import type { OAuthFailure } from "@/lib/oauth/failure";
import { loginBody } from "@/lib/users/field-rules";
import { AuthCard } from "./auth-card";
import { OAuthButtons } from "./oauth-buttons";
import { useTurnstile } from "./turnstile";
import { PasskeyLoginButton } from "./passkey-login-button";
import { TwoFactorStep } from "./two-factor-step";

// The super admin's factory password: logging in with it asks for a change at once.
const FACTORY_ROOT = { username: "root", password: "123456" };

type LoginValues = { username: string; password: string };

export function LoginForm({
  expired,
  returnTo,
  codeStep = false,
  oauthFailure = null,
}: {
  expired: boolean;
  returnTo: string | null;
  codeStep?: boolean;
  oauthFailure?: OAuthFailure | null;
}) {
  const t = useTranslations("login");
  const failures = useTranslations("oauth.failures");
  const status = useStatus();
  const methods = useRuleForm<LoginValues>(loginBody, { username: "", password: "" });
  const [busy, setBusy] = useState(false);
  const [factoryWarning, setFactoryWarning] = useState(false);
  // A password login of a user with 2FA on waits for the code (docs/two-factor.md).
  // A third-party sign-in of such a user arrives with step=2fa (its pending cookie is set).
  const [pending2fa, setPending2fa] = useState<LoginValues | null>(codeStep ? { username: "", password: "" } : null);
  const target = safeReturnTo(returnTo);
  const human = useTurnstile();

  async function submit(form: LoginValues) {
    if (!human.ready()) return;
    setBusy(true);
    try {
      const r = await api.post<LocalUser | { require_2fa: true }>(`/api/user/login${human.param(true)}`, {
        username: form.username.trim(),
        password: form.password,
      });
      if ("require_2fa" in r.data) {
        setPending2fa(form);
        setBusy(false);
        return;
      }
      signedIn(r.data, form);
    } catch {
      human.reset();
      setBusy(false);
    }
  }

  function signedIn(user: LocalUser, form: LoginValues | null) {
    setLocalUser(user);
    toast.success({ key: "login.success" });
    if (form && form.username.trim() === FACTORY_ROOT.username && form.password === FACTORY_ROOT.password) {
      setFactoryWarning(true);
      return;
    }
    // A full load: the server renders the shell for the new session.
    window.location.assign(target);
  }

  return (
    <AuthCard
      title={t("title")}
      footer={
        <div className="flex justify-center gap-4">
          {!status.self_use_mode_enabled && (
            <Link prefetch={false} href="/register" className="text-blue-600 hover:underline dark:text-blue-400">
              {t("toRegister")}
            </Link>
          )}
          <Link prefetch={false} href="/reset" className="text-blue-600 hover:underline dark:text-blue-400">
            {t("toReset")}
          </Link>
        </div>
      }
    >
      {pending2fa ? (
        <TwoFactorStep onDone={(user) => signedIn(user, pending2fa)} onBack={() => setPending2fa(null)} />
      ) : (
        <FormProvider {...methods}>
          <form onSubmit={methods.handleSubmit(submit, toastFirstError)} noValidate className="flex flex-col gap-4">
            {expired && <Alert tone="warning">{t("expired")}</Alert>}
            {oauthFailure && <Alert tone="error">{failures(oauthFailure)}</Alert>}
            <FormText name="username" label={t("username")} autoComplete="username" />
            <FormText name="password" label={t("password")} type="password" autoComplete="current-password" />
            {human.widget}
            <Button type="submit" disabled={busy} className="justify-center">
              {t("submit")}
            </Button>
            <PasskeyLoginButton human={human} onDone={(user) => signedIn(user, null)} />
          </form>
        </FormProvider>
      )}
      {!pending2fa && <OAuthButtons returnTo={target} />}
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
