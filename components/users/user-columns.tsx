"use client";
// Columns of the users table (/admin/users).
import type { ColumnDef } from "@tanstack/react-table";
import { Badge } from "@/components/ui/badge";
import { renderQuota, type QuotaDisplay } from "@/lib/client/format";
import { userRoleLabel, userStatusLabel } from "@/lib/client/labels";
import type { User } from "@/lib/client/user";
import { UserRowActions, type ManageAction, type ManageResult } from "./user-row-actions";

export const USER_COLUMNS = ["id", "username", "group", "plan", "stats", "invitation", "role", "status", "actions"] as const;
type UserColumn = (typeof USER_COLUMNS)[number];
type T = (key: string, values?: Record<string, string | number>) => string;

export function userColumns({
  t,
  display,
  onEdit,
  onManaged,
}: {
  t: T;
  display: QuotaDisplay;
  onEdit: (id: number) => void;
  onManaged: (id: number, a: ManageAction, r: ManageResult) => void;
}): ColumnDef<User>[] {
  const cells: Record<UserColumn, ColumnDef<User>["cell"]> = {
    id: ({ row }) => row.original.id,
    username: ({ row: { original: user } }) => (
      <>
        <div className="font-medium">{user.username}</div>
        {user.display_name && user.display_name !== user.username && <div className="text-xs text-zinc-500">{user.display_name}</div>}
        {user.remark && <div className="text-xs text-zinc-400">{user.remark}</div>}
      </>
    ),
    group: ({ row }) => <Badge color="blue">{row.original.group}</Badge>,
    // the active plan (docs/console-ui.md, "Plans")
    plan: ({ row: { original: user } }) =>
      user.plan ? (
        <Badge color="green">{user.plan}</Badge>
      ) : (
        <span className="text-zinc-400" aria-label={t("noPlan")}>
          —
        </span>
      ),
    stats: ({ row: { original: user } }) => (
      <>
        <div>{t("remaining", { quota: renderQuota(user.quota, display) })}</div>
        <div className="text-zinc-500">{t("used", { quota: renderQuota(user.used_quota, display) })}</div>
        <div className="text-zinc-500">{t("requests", { count: user.request_count })}</div>
      </>
    ),
    invitation: ({ row: { original: user } }) => (
      <>
        <div>{t("invited", { count: user.aff_count })}</div>
        {user.inviter_id ? <div className="text-zinc-500">{t("inviter", { id: user.inviter_id })}</div> : null}
      </>
    ),
    role: ({ row }) => {
      const role = userRoleLabel(row.original.role);
      return <Badge color={role.color}>{t(`role.${role.key}`)}</Badge>;
    },
    status: ({ row }) => {
      const status = userStatusLabel(row.original.status, row.original.DeletedAt);
      return <Badge color={status.color}>{t(`status.${status.key}`)}</Badge>;
    },
    // A deregistered row offers no actions.
    actions: ({ row: { original: user } }) =>
      user.DeletedAt ? null : <UserRowActions user={user} onEdit={() => onEdit(user.id)} onManaged={(a, r) => onManaged(user.id, a, r)} />,
  };
  const classes: Partial<Record<UserColumn, string>> = {
    username: "whitespace-nowrap",
    stats: "text-xs whitespace-nowrap",
    invitation: "text-xs whitespace-nowrap",
  };
  return USER_COLUMNS.map((id) => ({
    id,
    header: t(`columns.${id}`),
    meta: { label: t(`columns.${id}`), className: classes[id], hideable: id !== "id" && id !== "username" && id !== "actions" },
    cell: cells[id],
  }));
}
