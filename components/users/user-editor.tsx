"use client";
// The user editor: the admin's Edit drawer, /user/edit/{id}, and /user/edit (oneself,
// through /api/user/self). Group and quota are editable only when editing another user.
import { useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import useSWR from "swr";
import { Button } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/input";
import { Bindings } from "@/components/me/bindings";
import { useQuotaDisplay } from "@/components/layout/providers";
import { api } from "@/lib/client/api";
import { renderQuota } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";
import type { User } from "@/lib/client/user";

type Form = { username: string; display_name: string; password: string; original_password: string; group: string; quota: string; remark: string };

const toForm = (u: User): Form => ({
  username: u.username,
  display_name: u.display_name,
  password: "", // never loaded: blank keeps the current password
  original_password: "",
  group: u.group,
  quota: String(u.quota),
  remark: u.remark ?? "",
});

function GroupSelect({ value, onChange, label }: { value: string; onChange: (v: string) => void; label: string }) {
  const { data: groups } = useSWR<string[]>("/api/group/");
  const options = groups?.includes(value) || !value ? (groups ?? []) : [value, ...(groups ?? [])];
  return (
    <SelectField label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      {options.map((g) => (
        <option key={g} value={g}>
          {g}
        </option>
      ))}
    </SelectField>
  );
}

export function UserEditor({ userId, onSaved, onCancel }: { userId?: number; onSaved?: (u: User) => void; onCancel?: () => void }) {
  const t = useTranslations("userEditor");
  const display = useQuotaDisplay();
  const other = userId !== undefined;
  const { data: user, error } = useSWR<User>(other ? `/api/user/${userId}` : "/api/user/self");
  const [form, setForm] = useState<Form | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (user) setForm(toForm(user));
  }, [user]);

  if (error) return <p className="text-sm text-red-600">{t("loadFailed")}</p>;
  if (!user || !form) return <p className="text-sm text-zinc-500">{t("loading")}</p>;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!form) return;
    const body: Record<string, unknown> = { display_name: form.display_name };
    if (other) body.username = form.username.trim();
    if (form.password) body.password = form.password;
    // Changing one's own password needs the current one (an admin editing someone does not).
    if (form.password && !other) body.original_password = form.original_password;
    if (other) Object.assign(body, { id: userId, group: form.group, quota: Math.floor(Number(form.quota) || 0), remark: form.remark });
    setBusy(true);
    try {
      await api.put(other ? "/api/user/" : "/api/user/self", body);
      toast.success({ key: "userEditor.saved" });
      setForm({ ...form, password: "", original_password: "" });
      onSaved?.({ ...user!, ...body } as User);
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  const set = (k: keyof Form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  return (
    <form onSubmit={save} className="flex flex-col gap-4">
      {/* One's own username is not changed through /api/user/self. */}
      <Field label={t("username")} value={form.username} onChange={set("username")} maxLength={12} autoComplete="off" disabled={!other} />
      <Field label={t("displayName")} value={form.display_name} onChange={set("display_name")} autoComplete="off" />
      <Field
        label={t("password")}
        type="password"
        value={form.password}
        onChange={set("password")}
        placeholder={t("passwordPlaceholder")}
        hint={t("passwordHint")}
        autoComplete="new-password"
      />
      {!other && form.password && (
        <Field
          label={t("originalPassword")}
          type="password"
          value={form.original_password}
          onChange={set("original_password")}
          autoComplete="current-password"
        />
      )}
      {other && (
        <>
          <GroupSelect label={t("group")} value={form.group} onChange={(group) => setForm({ ...form, group })} />
          <Field
            label={t("quota")}
            type="number"
            value={form.quota}
            onChange={set("quota")}
            hint={t("quotaHint", { amount: renderQuota(Number(form.quota) || 0, display) })}
          />
          <Field label={t("remark")} value={form.remark} onChange={set("remark")} hint={t("remarkHint")} />
        </>
      )}
      <div>
        <h3 className="mb-1 text-sm font-medium text-zinc-700 dark:text-zinc-300">{t("bindings")}</h3>
        <p className="mb-2 text-xs text-zinc-500 dark:text-zinc-400">{t("bindingsHint")}</p>
        <Bindings user={user} />
      </div>
      <div className="flex justify-end gap-2">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            {t("cancel")}
          </Button>
        )}
        <Button type="submit" disabled={busy}>
          {t("save")}
        </Button>
      </div>
    </form>
  );
}
