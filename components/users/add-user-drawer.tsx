"use client";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Drawer } from "@/components/ui/dialog";
import { reportInvalid } from "@/components/ui/form-error";
import { Field } from "@/components/ui/input";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import { checkAddUser } from "@/lib/client/validation";

export function AddUserDrawer({ open, onOpenChange, onCreated }: { open: boolean; onOpenChange: (o: boolean) => void; onCreated: () => void }) {
  const t = useTranslations("users.add");
  const empty = { username: "", display_name: "", password: "" };
  const [form, setForm] = useState(empty);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const invalid = checkAddUser(form);
    if (invalid) return reportInvalid(invalid);
    setBusy(true);
    try {
      await api.post("/api/user/", { ...form, username: form.username.trim() });
      toast.success({ key: "users.add.created" });
      setForm(empty);
      onOpenChange(false);
      onCreated();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  return (
    <Drawer open={open} onOpenChange={onOpenChange} title={t("title")}>
      <form onSubmit={submit} className="flex flex-col gap-4">
        <Field label={t("username")} value={form.username} onChange={set("username")} maxLength={12} autoComplete="off" />
        <Field label={t("displayName")} value={form.display_name} onChange={set("display_name")} autoComplete="off" />
        <Field label={t("password")} type="password" value={form.password} onChange={set("password")} hint={t("passwordHint")} autoComplete="new-password" />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t("cancel")}
          </Button>
          <Button type="submit" disabled={busy}>
            {t("submit")}
          </Button>
        </div>
      </form>
    </Drawer>
  );
}
