"use client";
// The admin's "add user" drawer, checked by the server's createUserBody (lib/users/field-rules.ts).
import { useTranslations } from "next-intl";
import { useState } from "react";
import { FormProvider } from "react-hook-form";
import { FormText, toastFirstError, useRuleForm } from "@/components/forms";
import { Button } from "@/components/ui/button";
import { Drawer } from "@/components/ui/dialog";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import { createUserBody, USERNAME_MAX } from "@/lib/users/field-rules";

type AddUserForm = { username: string; display_name: string; password: string };
const empty: AddUserForm = { username: "", display_name: "", password: "" };

export function AddUserDrawer({ open, onOpenChange, onCreated }: { open: boolean; onOpenChange: (o: boolean) => void; onCreated: () => void }) {
  const t = useTranslations("users.add");
  const methods = useRuleForm<AddUserForm>(createUserBody, empty);
  const [busy, setBusy] = useState(false);

  async function submit(form: AddUserForm) {
    setBusy(true);
    try {
      await api.post("/api/user/", { ...form, username: form.username.trim() });
      toast.success({ key: "users.add.created" });
      methods.reset(empty);
      onOpenChange(false);
      onCreated();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  return (
    <Drawer open={open} onOpenChange={onOpenChange} title={t("title")}>
      <FormProvider {...methods}>
        <form onSubmit={methods.handleSubmit(submit, toastFirstError)} noValidate className="flex flex-col gap-4">
          <FormText name="username" label={t("username")} maxLength={USERNAME_MAX} autoComplete="off" />
          <FormText name="display_name" label={t("displayName")} autoComplete="off" />
          <FormText name="password" label={t("password")} type="password" hint={t("passwordHint")} autoComplete="new-password" />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              {t("cancel")}
            </Button>
            <Button type="submit" disabled={busy}>
              {t("submit")}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Drawer>
  );
}
