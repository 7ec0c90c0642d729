"use client";
// The user editor: the admin's Edit drawer, /user/edit/{id}, and /user/edit (oneself,
// through /api/user/self). Group, quota and the limits (docs/console-ui.md, "Limits") are
// editable only when editing another user.
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import { FormProvider, useFormContext } from "react-hook-form";
import useSWR from "swr";
import { FormQuota, FormSelect, FormText, toastFirstError, useRuleForm } from "@/components/forms";
import { Button } from "@/components/ui/button";
import { Bindings } from "@/components/me/bindings";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { StatementSection } from "@/components/wallet/statement-section";
import { SessionsAdmin } from "./sessions-admin";
import { UserLimits } from "@/components/limits/user-limits";
import { TwoFactorAdmin } from "./two-factor-admin";
import { useQuotaDisplay, useSessionUser } from "@/components/layout/providers";
import { can, isRootRole } from "@/lib/client/navigation";
import { api } from "@/lib/client/api";
import { renderQuota } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";
import type { User } from "@/lib/client/user";
import { blankLimitTexts } from "@/lib/client/limits";
import { USERNAME_MAX } from "@/lib/users/field-rules";
import { PermissionsAdmin } from "./permissions-admin";
import { TokensAdmin } from "./tokens-admin";
import { TestNotification } from "./test-notification";
import { userEditorSchema, userLimitsBody, userToForm, type UserEditorForm } from "./user-form";

function GroupSelect({ label }: { label: string }) {
  const { data: groups } = useSWR<string[]>("/api/group/");
  const value = useFormContext<UserEditorForm>().watch("group");
  const options = groups?.includes(value) || !value ? (groups ?? []) : [value, ...(groups ?? [])];
  return (
    <FormSelect name="group" label={label}>
      {options.map((g) => (
        <option key={g} value={g}>
          {g}
        </option>
      ))}
    </FormSelect>
  );
}

export function UserEditor({ userId, onSaved, onCancel }: { userId?: number; onSaved?: (u: User) => void; onCancel?: () => void }) {
  const t = useTranslations("userEditor");
  const ts = useTranslations("statement");
  const [statement, setStatement] = useState(false);
  const display = useQuotaDisplay();
  const other = userId !== undefined;
  const viewer = useSessionUser();
  const viewerIsRoot = isRootRole(viewer?.role ?? 0);
  // an admin without users:write reads the user; without users:quota the quota stays as it is
  // (docs/permissions.md); the server refuses either way
  const canWrite = !other || can(viewer, "users:write");
  const canQuota = can(viewer, "users:quota");
  const { data: user, error, mutate } = useSWR<User>(other ? `/api/user/${userId}` : "/api/user/self");
  const { displayInCurrency, quotaPerUnit } = display;
  const schema = useMemo(() => userEditorSchema(other, { displayInCurrency, quotaPerUnit }), [other, displayInCurrency, quotaPerUnit]);
  const methods = useRuleForm<UserEditorForm>(schema, {
    username: "",
    display_name: "",
    password: "",
    original_password: "",
    group: "",
    quota: "0",
    remark: "",
    ...blankLimitTexts(),
  });
  const [loaded, setLoaded] = useState(false);
  const [busy, setBusy] = useState(false);
  // A changed quota is confirmed first: the form waiting for it (docs/console-ui.md, "User list").
  const [quotaPending, setQuotaPending] = useState<UserEditorForm | null>(null);
  const { reset, watch } = methods;
  useEffect(() => {
    if (user) {
      reset(userToForm(user, { displayInCurrency, quotaPerUnit }));
      setLoaded(true);
    }
  }, [user, reset, displayInCurrency, quotaPerUnit]);
  const passwordValue = watch("password");

  if (error) return <p className="text-sm text-red-600">{t("loadFailed")}</p>;
  if (!user || !loaded) return <p className="text-sm text-zinc-500">{t("loading")}</p>;

  const name = user.display_name || user.username;
  const quotaChanged = (form: UserEditorForm) => other && Number(form.quota.trim()) !== user.quota;

  function submit(form: UserEditorForm) {
    if (quotaChanged(form)) setQuotaPending(form);
    else void save(form);
  }

  async function save(form: UserEditorForm) {
    const body: Record<string, unknown> = { display_name: form.display_name };
    if (other) body.username = form.username.trim();
    if (form.password) body.password = form.password;
    // Changing one's own password needs the current one (an admin editing someone does not).
    if (form.password && !other) body.original_password = form.original_password;
    if (other) Object.assign(body, { id: userId, group: form.group, quota: Number(form.quota.trim()), remark: form.remark }, userLimitsBody(form, display));
    setBusy(true);
    try {
      await api.put(other ? "/api/user/" : "/api/user/self", body, { failed: "userEditor.updateFailed" });
      if (quotaChanged(form)) toast.success({ key: "userEditor.quotaDone", values: { name, to: renderQuota(Number(form.quota.trim()), display) } });
      else toast.success({ key: "userEditor.saved" });
      reset({ ...form, password: "", original_password: "" });
      void mutate();
      onSaved?.({ ...user!, ...body } as User);
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormProvider {...methods}>
      <form onSubmit={methods.handleSubmit(submit, toastFirstError)} noValidate className="flex flex-col gap-4">
        {/* One's own username is not changed through /api/user/self. */}
        <FormText name="username" label={t("username")} maxLength={USERNAME_MAX} autoComplete="off" disabled={!other} />
        <FormText name="display_name" label={t("displayName")} autoComplete="off" />
        <FormText
          name="password"
          label={t("password")}
          type="password"
          placeholder={t("passwordPlaceholder")}
          hint={t("passwordHint")}
          autoComplete="new-password"
        />
        {!other && passwordValue && <FormText name="original_password" label={t("originalPassword")} type="password" autoComplete="current-password" />}
        {other && (
          <>
            <GroupSelect label={t("group")} />
            <FormQuota name="quota" label={t("quota")} disabled={!canQuota} />
            <FormText name="remark" label={t("remark")} hint={t("remarkHint")} />
            {userId !== undefined && <UserLimits userId={userId} />}
            <div>
              <Button variant="secondary" onClick={() => setStatement(true)}>
                {ts("open")}
              </Button>
            </div>
          </>
        )}
        <div>
          <h3 className="mb-1 text-sm font-medium text-zinc-700 dark:text-zinc-300">{t("bindings")}</h3>
          <p className="mb-2 text-xs text-zinc-500 dark:text-zinc-400">{t("bindingsHint")}</p>
          <Bindings user={user} clearFor={other && viewerIsRoot ? user.id : undefined} onChanged={() => void mutate()} />
        </div>
        {other && userId !== undefined && <TwoFactorAdmin userId={userId} viewerIsRoot={viewerIsRoot} />}
        {/* ending the user's sessions is a write (users:write) */}
        {other && canWrite && userId !== undefined && <SessionsAdmin userId={userId} />}
        {other && viewerIsRoot && <TestNotification user={user} />}
        {/* another user's tokens, read only (tokens:read) */}
        {other && can(viewer, "tokens:read") && userId !== undefined && <TokensAdmin userId={userId} />}
        {/* the permission set: the root edits an admin's (role 10) */}
        {other && viewerIsRoot && userId !== undefined && user.role === 10 && <PermissionsAdmin userId={userId} />}
        <div className="flex justify-end gap-2">
          {onCancel && (
            <Button variant="secondary" onClick={onCancel}>
              {t("cancel")}
            </Button>
          )}
          <Button type="submit" disabled={busy || !canWrite}>
            {t("save")}
          </Button>
        </div>
      </form>
      {other && (
        <Dialog
          open={quotaPending !== null}
          onOpenChange={(open) => !open && setQuotaPending(null)}
          title={t("quotaTitle", { name })}
          description={
            quotaPending && t("quotaConfirm", { name, from: renderQuota(user.quota, display), to: renderQuota(Number(quotaPending.quota.trim()), display) })
          }
          footer={
            <DialogActions
              cancel={t("cancel")}
              onCancel={() => setQuotaPending(null)}
              action={t("save")}
              onAction={() => {
                const form = quotaPending!;
                setQuotaPending(null);
                void save(form);
              }}
            />
          }
        />
      )}
      {/* Outside the form: React bubbles the statement's own submit through the portal. */}
      {other && (
        <Dialog
          open={statement}
          onOpenChange={setStatement}
          title={ts("dialogTitle", { name: user.display_name || user.username })}
          className="w-[min(72rem,96vw)]"
        >
          {statement && <StatementSection userId={userId} />}
        </Dialog>
      )}
    </FormProvider>
  );
}
