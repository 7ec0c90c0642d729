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
import { api } from "@/lib/client/api";
import { copyText } from "@/lib/client/clipboard";
import { toast } from "@/lib/client/toast";
import type { User } from "@/lib/client/user";
import { checkDeleteConfirm } from "@/lib/client/validation";
import { passwordChange } from "@/lib/users/field-rules";
import { Bindings } from "./bindings";

function AccessToken() {
  const t = useTranslations("me.account");
  const [token, setToken] = useState("");
  async function generate() {
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

function ChangePasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const t = useTranslations("me.account");
  const empty: PasswordForm = { original_password: "", password: "", password2: "" };
  const methods = useRuleForm<PasswordForm>(passwordChange, empty);
  const [busy, setBusy] = useState(false);
  async function save(form: PasswordForm) {
    setBusy(true);
    try {
      await api.put("/api/user/self", { original_password: form.original_password, password: form.password });
      toast.success({ key: "me.account.passwordChanged" });
      methods.reset(empty);
      onOpenChange(false);
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
      title={t("changePassword")}
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
        <FormText name="original_password" label={t("originalPassword")} type="password" autoComplete="current-password" />
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

export function AccountCard({ user }: { user: User }) {
  const t = useTranslations("me.account");
  const [dialog, setDialog] = useState<"password" | "delete" | null>(null);
  const openChange = (which: "password" | "delete") => (o: boolean) => setDialog(o ? which : null);
  return (
    <Card title={t("title")}>
      <div className="flex flex-col gap-5">
        <Bindings user={user} />
        <AccessToken />
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setDialog("password")}>
            {t("changePassword")}
          </Button>
          <Button variant="danger" onClick={() => setDialog("delete")}>
            {t("deleteAccount")}
          </Button>
        </div>
      </div>
      <ChangePasswordDialog open={dialog === "password"} onOpenChange={openChange("password")} />
      <DeleteAccountDialog username={user.username} open={dialog === "delete"} onOpenChange={openChange("delete")} />
    </Card>
  );
}
