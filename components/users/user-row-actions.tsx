"use client";
import { Pencil, Trash } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useSessionUser } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { api } from "@/lib/client/api";
import { can, isRootRole } from "@/lib/client/navigation";
import { toast } from "@/lib/client/toast";
import type { User } from "@/lib/client/user";
import { USER_STATUS } from "@/lib/statuses";

export type ManageAction = "promote" | "demote" | "enable" | "disable" | "delete";
export type ManageResult = { status: number; role: number };

// Every action asks first, naming the user and the change, and its toast says what changed
// (docs/console-ui.md, "User list").
export function UserRowActions({ user, onEdit, onManaged }: { user: User; onEdit: () => void; onManaged: (action: ManageAction, r: ManageResult) => void }) {
  const t = useTranslations("users.actions");
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<ManageAction | null>(null);
  // The last action asked about: the dialog keeps its text while it closes.
  const [asked, setAsked] = useState<ManageAction>("delete");
  const name = user.display_name || user.username;

  function ask(action: ManageAction) {
    setAsked(action);
    setConfirming(action);
  }

  async function manage(action: ManageAction) {
    setBusy(true);
    try {
      const r = await api.post<ManageResult>("/api/user/manage", { id: user.id, action });
      toast.success({ key: `users.actions.${action}Done`, values: { name } });
      onManaged(action, r.data);
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  // The super admin cannot be demoted, disabled or deregistered: only Edit is offered.
  const protectedRoot = isRootRole(user.role);
  // Only the super admin promotes or demotes (docs/product-rules.md, "Accounts"): a regular admin acts on
  // lower levels only, where demote has nothing to do and promote is always refused.
  const viewer = useSessionUser();
  const viewerRole = viewer?.role ?? 0;
  const viewerIsRoot = isRootRole(viewerRole);
  // disable, enable and delete are writes (users:write, docs/permissions.md)
  const write = can(viewer, "users:write");
  // Nor does a regular admin act on the same or a higher level (read, edit, manage): the
  // server refuses all of it, so such rows offer nothing.
  if (!viewerIsRoot && user.role >= viewerRole) return null;
  const roleAction: ManageAction = user.role < 10 ? "promote" : "demote";
  const statusAction: ManageAction = user.status === USER_STATUS.enabled ? "disable" : "enable";
  return (
    <div className="flex gap-1">
      {!protectedRoot && viewerIsRoot && (
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => ask(roleAction)} aria-label={t(`${roleAction}User`, { name })}>
          {t(roleAction)}
        </Button>
      )}
      {!protectedRoot && write && (
        <Button
          size="sm"
          variant="secondary"
          // A user in status 3 ("other") cannot simply be enabled.
          disabled={busy || (statusAction === "enable" && user.status === USER_STATUS.other)}
          onClick={() => ask(statusAction)}
          aria-label={t(`${statusAction}User`, { name })}
        >
          {t(statusAction)}
        </Button>
      )}
      <Button size="sm" variant="secondary" onClick={onEdit} aria-label={t("editUser", { name })}>
        <Pencil aria-hidden className="h-3.5 w-3.5" />
        {t("edit")}
      </Button>
      {!protectedRoot && write && (
        <Button size="sm" variant="danger" disabled={busy} onClick={() => ask("delete")} aria-label={t("deleteUser", { name })}>
          <Trash aria-hidden className="h-3.5 w-3.5" />
          {t("delete")}
        </Button>
      )}
      <Dialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={t(`${asked}Title`, { name })}
        description={t(`${asked}Confirm`, { name })}
        footer={
          <DialogActions
            cancel={t("cancel")}
            onCancel={() => setConfirming(null)}
            action={t(asked)}
            onAction={() => {
              setConfirming(null);
              void manage(asked);
            }}
            danger={asked === "delete" || asked === "disable"}
          />
        }
      />
    </div>
  );
}
