"use client";
import { useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import useSWR from "swr";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PageTitle } from "@/components/ui/card";
import { Drawer } from "@/components/ui/dialog";
import { Input, Select } from "@/components/ui/input";
import { Pagination } from "@/components/ui/pagination";
import { ListStatusRow, Table, Td, Th } from "@/components/ui/table";
import { usePageSize } from "@/lib/client/use-page-size";
import { useQuotaDisplay } from "@/components/layout/providers";
import { renderQuota } from "@/lib/client/format";
import { userRoleLabel, userStatusLabel } from "@/lib/client/labels";
import { DEFAULT_PAGE_SIZE } from "@/lib/client/storage";
import { userListPath, type Page, type User } from "@/lib/client/user";
import { AddUserDrawer } from "./add-user-drawer";
import { UserEditor } from "./user-editor";
import { UserRowActions, type ManageAction, type ManageResult } from "./user-row-actions";

const COLUMNS = 8;

function UserRow({ user, onEdit, onManaged }: { user: User; onEdit: () => void; onManaged: (a: ManageAction, r: ManageResult) => void }) {
  const t = useTranslations("users");
  const display = useQuotaDisplay();
  const status = userStatusLabel(user.status, user.DeletedAt);
  const role = userRoleLabel(user.role);
  return (
    <tr data-testid={`user-row-${user.username}`}>
      <Td>{user.id}</Td>
      <Td>
        <div className="font-medium">{user.username}</div>
        {user.display_name && user.display_name !== user.username && <div className="text-xs text-zinc-500">{user.display_name}</div>}
        {user.remark && <div className="text-xs text-zinc-400">{user.remark}</div>}
      </Td>
      <Td>
        <Badge color="blue">{user.group}</Badge>
      </Td>
      <Td className="text-xs whitespace-nowrap">
        <div>{t("remaining", { quota: renderQuota(user.quota, display) })}</div>
        <div className="text-zinc-500">{t("used", { quota: renderQuota(user.used_quota, display) })}</div>
        <div className="text-zinc-500">{t("requests", { count: user.request_count })}</div>
      </Td>
      <Td className="text-xs">
        <div>{t("invited", { count: user.aff_count })}</div>
        {user.inviter_id ? <div className="text-zinc-500">{t("inviter", { id: user.inviter_id })}</div> : null}
      </Td>
      <Td>
        <Badge color={role.color}>{t(`role.${role.key}`)}</Badge>
      </Td>
      <Td>
        <Badge color={status.color}>{t(`status.${status.key}`)}</Badge>
      </Td>
      <Td>{user.DeletedAt ? null : <UserRowActions user={user} onEdit={onEdit} onManaged={onManaged} />}</Td>
    </tr>
  );
}

export function UsersPage() {
  const t = useTranslations("users");
  const [keyword, setKeyword] = useState("");
  const [group, setGroup] = useState("");
  const [query, setQuery] = useState({ keyword: "", group: "" });
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = usePageSize();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const { data: groups } = useSWR<string[]>("/api/group/");
  const path = pageSize === null ? null : userListPath({ ...query, page, pageSize });
  const { data, error, isLoading, mutate } = useSWR<Page<User>>(path);
  useEffect(() => setPage(0), [query, pageSize]);

  function search(e: FormEvent) {
    e.preventDefault();
    setQuery({ keyword, group });
  }

  // The row takes the status and role the server answered with.
  function applyManaged(id: number, action: ManageAction, r: ManageResult) {
    void mutate(
      (current) =>
        current && {
          ...current,
          items: current.items.map((u) =>
            u.id === id ? { ...u, status: r.status, role: r.role, DeletedAt: action === "delete" ? new Date().toISOString() : u.DeletedAt } : u,
          ),
        },
      { revalidate: false },
    );
  }

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <PageTitle actions={<Button onClick={() => setAdding(true)}>{t("addUser")}</Button>}>{t("title")}</PageTitle>
      <form onSubmit={search} className="mb-4 flex flex-wrap gap-2" role="search">
        <Input
          aria-label={t("keyword")}
          placeholder={t("keywordPlaceholder")}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          className="w-72 max-w-full"
        />
        <Select aria-label={t("groupFilter")} value={group} onChange={(e) => setGroup(e.target.value)} className="w-auto">
          <option value="">{t("allGroups")}</option>
          {(groups ?? []).map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </Select>
        <Button type="submit">{t("search")}</Button>
      </form>
      <Table>
        <thead>
          <tr>
            {(["id", "username", "group", "stats", "invitation", "role", "status", "actions"] as const).map((c) => (
              <Th key={c}>{t(`columns.${c}`)}</Th>
            ))}
          </tr>
        </thead>
        <tbody>
          <ListStatusRow colSpan={COLUMNS} list={{ isLoading, error, data }} t={t} />
          {data?.items.map((u) => (
            <UserRow key={u.id} user={u} onEdit={() => setEditing(u.id)} onManaged={(a, r) => applyManaged(u.id, a, r)} />
          ))}
        </tbody>
      </Table>
      <Pagination page={page} pageSize={pageSize ?? DEFAULT_PAGE_SIZE} total={data?.total ?? 0} onPage={setPage} onPageSize={setPageSize} />
      <AddUserDrawer open={adding} onOpenChange={setAdding} onCreated={() => void mutate()} />
      <Drawer open={editing !== null} onOpenChange={(o) => !o && setEditing(null)} title={t("editUser")}>
        {editing !== null && (
          <UserEditor
            userId={editing}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              void mutate();
            }}
          />
        )}
      </Drawer>
    </div>
  );
}
