"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { FormProvider } from "react-hook-form";
import { FormText, toastFirstError, useRuleForm } from "@/components/forms";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { reportInvalid } from "@/components/ui/form-error";
import { Field, Input } from "@/components/ui/input";
import { logout } from "@/components/layout/user-menu";
import { useStatus } from "@/components/layout/providers";
import { api } from "@/lib/client/api";
import { copyText } from "@/lib/client/clipboard";
import { toast } from "@/lib/client/toast";
import type { User } from "@/lib/client/user";
import { checkDeleteConfirm, checkEmailCode } from "@/lib/client/validation";
import { SendCodeButton } from "@/components/auth/send-code-button";
import { useTurnstile } from "@/components/auth/turnstile";
import { firstPasswordSet, passwordChange } from "@/lib/users/field-rules";
import { Bindings } from "./bindings";
import { ensureFreshFactor } from "./fresh-factor";

function AccessToken() {
  const t = useTranslations("me.account");
  const [token, setToken] = useState("");
  async function generate() {
    if (!(await ensureFreshFactor())) return;
    try {
      const r = await api.get<string>("/api/user/token");
      setToken(r.data);
      await copyText(r.data, "me.account.tokenCopied");
    } catch {
      // reported by the API helper
    }
  }
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("tokenHelp")}</p>
      <div className="flex gap-2">
        <Input readOnly value={token} className="min-w-0 flex-1" placeholder={t("tokenPlaceholder")} aria-label={t("tokenLabel")} />
        <Button variant="secondary" onClick={generate}>
          {t("tokenButton")}
        </Button>
      </div>
    </div>
  );
}

type PasswordForm = { original_password: string; password: string; password2: string };

// first: the account has no password yet (made through a provider): no original asked.
function ChangePasswordDialog({
  open,
  onOpenChange,
  first,
  onChanged,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  first: boolean;
  onChanged?: () => void;
}) {
  const t = useTranslations("me.account");
  const empty: PasswordForm = { original_password: "", password: "", password2: "" };
  const methods = useRuleForm<PasswordForm>(first ? firstPasswordSet : passwordChange, empty);
  const [busy, setBusy] = useState(false);
  async function save(form: PasswordForm) {
    if (!(await ensureFreshFactor())) return;
    setBusy(true);
    try {
      await api.put("/api/user/self", first ? { password: form.password } : { original_password: form.original_password, password: form.password });
      toast.success({ key: first ? "me.account.passwordSet" : "me.account.passwordChanged" });
      methods.reset(empty);
      onOpenChange(false);
      if (first) onChanged?.();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={first ? t("setPassword") : t("changePassword")}
      description={first ? t("setPasswordHelp") : undefined}
      footer={
        <DialogActions
          cancel={t("cancel")}
          onCancel={() => onOpenChange(false)}
          action={t("confirm")}
          onAction={() => void methods.handleSubmit(save, toastFirstError)()}
          busy={busy}
        />
      }
    >
      <FormProvider {...methods}>
        {!first && <FormText name="original_password" label={t("originalPassword")} type="password" autoComplete="current-password" />}
        <FormText name="password" label={t("newPassword")} type="password" autoComplete="new-password" hint={t("passwordHint")} />
        <FormText name="password2" label={t("confirmPassword")} type="password" autoComplete="new-password" />
      </FormProvider>
    </Dialog>
  );
}

function DeleteAccountDialog({ username, open, onOpenChange }: { username: string; open: boolean; onOpenChange: (o: boolean) => void }) {
  const t = useTranslations("me.account");
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  async function remove() {
    const invalid = checkDeleteConfirm(typed, username);
    if (invalid) return reportInvalid(invalid);
    if (!(await ensureFreshFactor())) return;
    setBusy(true);
    try {
      await api.del("/api/user/self");
      toast.success({ key: "me.account.deleted" });
      await logout();
    } catch {
      setBusy(false);
    }
  }
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("deleteAccount")}
      description={t("deleteWarning")}
      footer={<DialogActions cancel={t("cancel")} onCancel={() => onOpenChange(false)} action={t("deleteConfirm")} onAction={remove} busy={busy} danger />}
    >
      <Field label={t("typeUsername", { username })} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
    </Dialog>
  );
}

type EmailForm = { email: string; code: string };

// Binding or changing the account's address with a mailed code (docs/accounts-api.md).
function EmailBindDialog({
  current,
  open,
  onOpenChange,
  onBound,
}: {
  current: string;
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onBound: () => void;
}) {
  const t = useTranslations("me.account");
  const [form, setForm] = useState<EmailForm>({ email: current, code: "" });
  const [busy, setBusy] = useState(false);
  const human = useTurnstile();
  const sendCode = () =>
    human.ready()
      ? api
          .get(`/api/verification?email=${encodeURIComponent(form.email.trim())}${human.param(false)}`)
          .then((r) => toast.success({ text: r.message }))
          .finally(human.reset)
      : Promise.reject(new Error("turnstile"));
  async function bind() {
    const invalid = checkEmailCode(form.email, form.code);
    if (invalid) return reportInvalid(invalid);
    setBusy(true);
    try {
      await api.get(`/api/oauth/email/bind?email=${encodeURIComponent(form.email.trim())}&code=${encodeURIComponent(form.code.trim())}`);
      toast.success({ key: "me.account.emailBound" });
      setForm({ email: form.email.trim(), code: "" });
      onOpenChange(false);
      onBound();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={current ? t("changeEmail") : t("bindEmail")}
      footer={<DialogActions cancel={t("cancel")} onCancel={() => onOpenChange(false)} action={t("bindEmailConfirm")} onAction={bind} busy={busy} />}
    >
      <div className="flex items-end gap-2">
        <Field
          label={t("email")}
          type="email"
          value={form.email}
          onChange={(e) => setForm({ ...form, email: e.target.value })}
          autoComplete="email"
          placeholder={t("emailPlaceholder")}
          className="min-w-0 flex-1"
        />
        <SendCodeButton send={sendCode} />
      </div>
      {human.widget}
      <Field label={t("emailCode")} value={form.code} onChange={(e) => setForm({ ...form, code: e.target.value })} autoComplete="one-time-code" />
    </Dialog>
  );
}

export function AccountCard({ user, onChanged }: { user: User; onChanged?: () => void }) {
  const t = useTranslations("me.account");
  const [dialog, setDialog] = useState<"password" | "delete" | "email" | null>(null);
  const openChange = (which: "password" | "delete" | "email") => (o: boolean) => setDialog(o ? which : null);
  const mailReady = useStatus().mail_configured;
  return (
    <Card title={t("title")}>
      <div className="flex flex-col gap-5">
        <Bindings user={user} self onChanged={onChanged} />
        <AccessToken />
        <div className="flex flex-wrap gap-2">
          {/* Without an SMTP server no code can be sent: the button would lead nowhere. */}
          {mailReady && (
            <Button variant="secondary" onClick={() => setDialog("email")}>
              {user.email ? t("changeEmail") : t("bindEmail")}
            </Button>
          )}
          <Button variant="secondary" onClick={() => setDialog("password")}>
            {user.has_password === false ? t("setPassword") : t("changePassword")}
          </Button>
          <Button variant="danger" onClick={() => setDialog("delete")}>
            {t("deleteAccount")}
          </Button>
        </div>
        {!mailReady && (
          <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="email-unavailable">
            {t("emailUnavailable")}
          </p>
        )}
      </div>
      <EmailBindDialog current={user.email} open={dialog === "email"} onOpenChange={openChange("email")} onBound={() => onChanged?.()} />
      <ChangePasswordDialog
        key={user.has_password === false ? "first" : "change"}
        open={dialog === "password"}
        onOpenChange={openChange("password")}
        first={user.has_password === false}
        onChanged={onChanged}
      />
      <DeleteAccountDialog username={user.username} open={dialog === "delete"} onOpenChange={openChange("delete")} />
    </Card>
  );
}
