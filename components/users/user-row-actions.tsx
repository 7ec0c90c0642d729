"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import type { User } from "@/lib/client/user";

export type ManageAction = "promote" | "demote" | "enable" | "disable" | "delete";
export type ManageResult = { status: number; role: number };

export function UserRowActions({ user, onEdit, onManaged }: { user: User; onEdit: () => void; onManaged: (action: ManageAction, r: ManageResult) => void }) {
  const t = useTranslations("users.actions");
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  async function manage(action: ManageAction) {
    setBusy(true);
    try {
      const r = await api.post<ManageResult>("/api/user/manage", { id: user.id, action });
      toast.success({ key: "users.actions.done" });
      onManaged(action, r.data);
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  const name = user.display_name || user.username;
  return (
    <div className="flex flex-wrap gap-1">
      {user.role < 10 ? (
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => manage("promote")} aria-label={t("promoteUser", { name })}>
          {t("promote")}
        </Button>
      ) : (
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => manage("demote")} aria-label={t("demoteUser", { name })}>
          {t("demote")}
        </Button>
      )}
      {user.status === 1 ? (
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => manage("disable")} aria-label={t("disableUser", { name })}>
          {t("disable")}
        </Button>
      ) : (
        <Button size="sm" variant="secondary" disabled={busy || user.status === 3} onClick={() => manage("enable")} aria-label={t("enableUser", { name })}>
          {t("enable")}
        </Button>
      )}
      <Button size="sm" variant="secondary" onClick={onEdit} aria-label={t("editUser", { name })}>
        {t("edit")}
      </Button>
      <Button size="sm" variant="danger" disabled={busy} onClick={() => setConfirmDelete(true)} aria-label={t("deleteUser", { name })}>
        {t("delete")}
      </Button>
      <Dialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t("deleteTitle")}
        description={t("deleteConfirm", { name })}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmDelete(false)}>
              {t("cancel")}
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                setConfirmDelete(false);
                void manage("delete");
              }}
            >
              {t("delete")}
            </Button>
          </>
        }
      />
    </div>
  );
}
