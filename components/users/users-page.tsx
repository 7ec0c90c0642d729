"use client";
// /admin/users: search by keyword and group, add, edit (drawer), manage, on the console's DataTable (docs/console-ui.md).
import { useTranslations } from "next-intl";
import { Plus, Search } from "lucide-react";
import { useState, type FormEvent } from "react";
import useSWR from "swr";
import { DataTable, useServerPaging } from "@/components/data-table";
import { Button } from "@/components/ui/button";
import { PageTitle } from "@/components/ui/card";
import { Drawer } from "@/components/ui/dialog";
import { Input, Select } from "@/components/ui/input";
import { useQuotaDisplay, useSessionUser } from "@/components/layout/providers";
import { can } from "@/lib/client/navigation";
import { userListPath, type Page, type User } from "@/lib/client/user";
import { AddUserDrawer } from "./add-user-drawer";
import { UserEditor } from "./user-editor";
import { userColumns } from "./user-columns";
import type { ManageAction, ManageResult } from "./user-row-actions";

export function UsersPage() {
  const t = useTranslations("users");
  const display = useQuotaDisplay();
  const [keyword, setKeyword] = useState("");
  const [group, setGroup] = useState("");
  const [query, setQuery] = useState({ keyword: "", group: "" });
  const paging = useServerPaging(query);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const { data: groups } = useSWR<string[]>("/api/group/");
  const path = paging.pageSize === null ? null : userListPath({ ...query, page: paging.page, pageSize: paging.pageSize });
  const { data, error, isLoading, mutate } = useSWR<Page<User>>(path);

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

  // adding a user is a write (users:write, docs/permissions.md)
  const canCreate = can(useSessionUser(), "users:write");
  const columns = userColumns({ t, display, onEdit: setEditing, onManaged: applyManaged });

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <PageTitle
        actions={
          canCreate && (
            <Button onClick={() => setAdding(true)}>
              <Plus aria-hidden className="h-4 w-4" />
              {t("addUser")}
            </Button>
          )
        }
      >
        {t("title")}
      </PageTitle>
      <DataTable<User>
        id="users"
        toolbar={
          <form onSubmit={search} className="flex flex-wrap gap-2" role="search">
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
            <Button type="submit">
              <Search aria-hidden className="h-4 w-4" />
              {t("search")}
            </Button>
          </form>
        }
        columns={columns}
        rows={data?.items}
        getRowId={(u) => String(u.id)}
        loading={isLoading}
        error={error}
        onRetry={() => void mutate()}
        emptyText={t("empty")}
        errorText={t("loadFailed")}
        rowProps={(u) => ({ "data-testid": `user-row-${u.username}` })}
        paging={
          paging.pageSize === null
            ? undefined
            : { page: paging.page, pageSize: paging.pageSize, total: data?.total ?? 0, onPage: paging.setPage, onPageSize: paging.setPageSize }
        }
      />
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
