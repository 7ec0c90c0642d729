"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useEffect, useState } from "react";
import { FormProvider } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { FormText, toastFirstError, useRuleForm } from "@/components/forms";
import { useStatus } from "@/components/layout/providers";
import { api } from "@/lib/client/api";
import { readItem, STORAGE_KEYS, writeItem } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import { registerForm, USERNAME_MAX } from "@/lib/users/field-rules";
import { reportInvalid } from "@/components/ui/form-error";
import { checkEmailCode } from "@/lib/client/validation";
import { AuthCard } from "./auth-card";
import { OAuthButtons } from "./oauth-buttons";
import { SendCodeButton } from "./send-code-button";
import { useTurnstile } from "./turnstile";

type RegisterValues = { username: string; password: string; password2: string; email: string; verification_code: string };

export function RegisterForm({ aff }: { aff: string | null }) {
  const t = useTranslations("register");
  const status = useStatus();
  const methods = useRuleForm<RegisterValues>(registerForm, { username: "", password: "", password2: "", email: "", verification_code: "" });
  const [busy, setBusy] = useState(false);
  const human = useTurnstile();

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
          <Link prefetch={false} href="/login" className="text-blue-600 hover:underline dark:text-blue-400">
            {t("toLogin")}
          </Link>
        }
      >
        <Alert tone="warning">{closed}</Alert>
      </AuthCard>
    );
  }

  const verify = status.email_verification;
  const sendCode = () =>
    human.ready()
      ? api
          .get(`/api/verification?email=${encodeURIComponent(methods.getValues("email").trim())}${human.param(false)}`)
          .then((r) => toast.success({ text: r.message }))
          .finally(human.reset)
      : Promise.reject(new Error("turnstile"));

  async function submit(form: RegisterValues) {
    const invalid = verify ? checkEmailCode(form.email, form.verification_code) : null;
    if (invalid) return reportInvalid(invalid);
    if (!human.ready()) return;
    setBusy(true);
    try {
      const affCode = aff ?? readItem(STORAGE_KEYS.aff) ?? undefined;
      await api.post(`/api/user/register${human.param(true)}`, { ...form, username: form.username.trim(), email: form.email.trim(), aff_code: affCode });
      toast.success({ key: "register.success" });
      window.location.assign("/login");
    } catch {
      human.reset();
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title={t("title")}
      footer={
        <>
          {t("haveAccount")}{" "}
          <Link prefetch={false} href="/login" className="text-blue-600 hover:underline dark:text-blue-400">
            {t("toLogin")}
          </Link>
        </>
      }
    >
      <FormProvider {...methods}>
        <form onSubmit={methods.handleSubmit(submit, toastFirstError)} noValidate className="flex flex-col gap-4">
          {!status.password_register_enabled && <Alert tone="warning">{t("passwordRegisterDisabled")}</Alert>}
          <FormText name="username" label={t("username")} maxLength={USERNAME_MAX} placeholder={t("usernamePlaceholder")} autoComplete="username" />
          <FormText name="password" label={t("password")} type="password" placeholder={t("passwordPlaceholder")} autoComplete="new-password" />
          <FormText name="password2" label={t("password2")} type="password" autoComplete="new-password" />
          {/* Only a verified address is taken (docs/accounts-api.md, "E-mail addresses"). */}
          {verify && (
            <>
              <div className="flex items-end gap-2">
                <FormText
                  name="email"
                  label={t("emailRequired")}
                  type="email"
                  placeholder={t("emailPlaceholder")}
                  autoComplete="email"
                  className="min-w-0 flex-1"
                />
                <SendCodeButton send={sendCode} />
              </div>
              <FormText name="verification_code" label={t("verificationCode")} placeholder={t("verificationCodePlaceholder")} autoComplete="one-time-code" />
            </>
          )}
          {aff && <p className="text-xs text-zinc-500 dark:text-zinc-400">{t("invitedBy", { code: aff })}</p>}
          {human.widget}
          <Button type="submit" disabled={busy} className="justify-center">
            {t("submit")}
          </Button>
        </form>
      </FormProvider>
      <OAuthButtons returnTo="/app/tokens" aff={aff ?? readItem(STORAGE_KEYS.aff) ?? ""} />
    </AuthCard>
  );
}
