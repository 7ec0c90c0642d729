"use client";
// The create drawer's recipient picker: a searchable table of users, 20 per page, with a
// checkbox per row and one that selects the whole page. The choice is kept across pages and
// searches; "clear" empties it.
import type { ColumnDef } from "@tanstack/react-table";
import { Search } from "lucide-react";
import { useTranslations } from "next-intl";
import { useMemo, useState, type FormEvent } from "react";
import useSWR from "swr";
import { DataTable } from "@/components/data-table";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { PickUser, UserPage } from "./types";

export const PICKER_PAGE_SIZE = 20;

export function RecipientPicker({ selected, onChange }: { selected: string[]; onChange: (ids: string[]) => void }) {
  const t = useTranslations("messages.picker");
  const [draft, setDraft] = useState("");
  const [keyword, setKeyword] = useState("");
  const [page, setPage] = useState(0);
  const path = `/api/user/search?${new URLSearchParams({ keyword, p: String(page + 1), page_size: String(PICKER_PAGE_SIZE) })}`;
  const { data, error, isLoading, mutate } = useSWR<UserPage>(path);
  const columns = useMemo<ColumnDef<PickUser>[]>(
    () => [
      { id: "id", header: t("id"), meta: { label: t("id") }, cell: ({ row: { original: u } }) => u.id },
      { id: "username", header: t("username"), meta: { label: t("username"), hideable: false }, cell: ({ row: { original: u } }) => u.username },
      { id: "display_name", header: t("displayName"), meta: { label: t("displayName") }, cell: ({ row: { original: u } }) => u.display_name },
      { id: "group", header: t("group"), meta: { label: t("group") }, cell: ({ row: { original: u } }) => u.group },
    ],
    [t],
  );

  function search(e: FormEvent) {
    e.preventDefault();
    setKeyword(draft.trim());
    setPage(0);
  }

  return (
    <div className="flex flex-col gap-2" data-testid="recipient-picker">
      <div className="flex items-center justify-between text-sm font-medium text-zinc-700 dark:text-zinc-300">
        <span>{t("title")}</span>
        <span className="flex items-center gap-2 font-normal text-zinc-500">
          <span data-testid="picked-count">{t("chosen", { count: selected.length })}</span>
          {selected.length > 0 && (
            <Button size="sm" variant="ghost" onClick={() => onChange([])}>
              {t("clear")}
            </Button>
          )}
        </span>
      </div>
      <DataTable<PickUser>
        id="message-recipient-picker"
        toolbar={
          <form onSubmit={search} role="search" className="flex flex-wrap gap-2">
            <Input aria-label={t("search")} placeholder={t("search")} value={draft} onChange={(e) => setDraft(e.target.value)} className="w-full sm:w-56" />
            <Button type="submit" variant="secondary">
              <Search aria-hidden className="h-4 w-4" />
              {t("searchButton")}
            </Button>
          </form>
        }
        columns={columns}
        rows={data?.items}
        getRowId={(u) => String(u.id)}
        loading={isLoading}
        error={error}
        onRetry={() => void mutate()}
        selection={{ selected, onChange, rowLabel: (u) => t("select", { name: u.username }), allLabel: t("selectPage") }}
        paging={{ page, pageSize: PICKER_PAGE_SIZE, total: data?.total ?? 0, onPage: setPage }}
      />
    </div>
  );
}
