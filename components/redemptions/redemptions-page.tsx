"use client";
// /admin/coupons (docs/redemptions.md): redemption codes on the console's DataTable: search,
// paging, create/edit drawer, enable/disable, delete, batch-disable of the selected rows,
// delete all disabled, count then delete by name. Rows are greyed when disabled or when a
// gift code's uses are all taken; edit only at status 1, enable never at status 3.
import { useTranslations } from "next-intl";
import { Ban, Plus, Search, Trash2 } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import useSWR from "swr";
import { DataTable, useServerPaging } from "@/components/data-table";
import { useConfirm } from "@/components/forms";
import { useQuotaDisplay, useSessionUser } from "@/components/layout/providers";
import { can } from "@/lib/client/navigation";
import { Button } from "@/components/ui/button";
import { PageTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import { redemptionColumns } from "./redemption-columns";
import { RedemptionDrawer } from "./redemption-drawer";
import { CreatedKeysDialog } from "./created-keys-dialog";
import { isGreyed, type Redemption, type RedemptionPage } from "./types";
import { REDEMPTION_STATUS } from "@/lib/statuses";

function listPath(keyword: string, page: number, size: number): string {
  const k = keyword.trim();
  if (k) return `/api/redemption/search?${new URLSearchParams({ keyword: k, p: String(page + 1), page_size: String(size) })}`;
  return `/api/redemption/?p=${page + 1}&page_size=${size}`;
}

export function RedemptionsPage() {
  // adding, editing, enabling, disabling and deleting codes are writes (billing:write,
  // docs/permissions.md): without it the page lists and searches only
  const write = can(useSessionUser(), "billing:write");
  const t = useTranslations("redemptions");
  const display = useQuotaDisplay();
  const [draft, setDraft] = useState("");
  const [keyword, setKeyword] = useState("");
  const paging = useServerPaging(keyword);
  const [editing, setEditing] = useState<Redemption | "new" | null>(null);
  const [created, setCreated] = useState<string[] | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [batchName, setBatchName] = useState("");
  const [pending, setPending] = useState<{ title: string; description: string }>({ title: "", description: "" });
  const path = paging.pageSize === null ? null : listPath(keyword, paging.page, paging.pageSize);
  const { data, error, isLoading, isValidating, mutate } = useSWR<RedemptionPage>(path);
  const confirm = useConfirm({ title: pending.title, description: pending.description, action: t("confirmDelete"), danger: true });
  useEffect(() => setSelected([]), [data]);

  function search(e: FormEvent) {
    e.preventDefault();
    setKeyword(draft);
  }

  async function run(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
      void mutate();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  const setStatus = (c: Redemption, status: 1 | 2) =>
    run(async () => {
      await api.put("/api/redemption/?status_only=true", { id: c.id, status });
      toast.success({ key: status === REDEMPTION_STATUS.unused ? "redemptions.enabled" : "redemptions.disabled" });
    });

  async function ask(title: string, description: string): Promise<boolean> {
    setPending({ title, description });
    return confirm.ask();
  }

  async function remove(c: Redemption) {
    if (!(await ask(t("deleteTitle"), t("deleteConfirm", { name: c.name, id: c.id })))) return;
    await run(async () => {
      await api.del(`/api/redemption/${c.id}/`);
      toast.success({ key: "redemptions.deleted" });
    });
  }

  const batchDisable = () =>
    run(async () => {
      const r = await api.put<number>("/api/redemption/batch-disable", { ids: selected.map(Number) });
      toast.success({ key: "redemptions.batchDisabled", values: { count: r.data } });
    });

  async function deleteDisabled() {
    if (!(await ask(t("deleteDisabledTitle"), t("deleteDisabledConfirm")))) return;
    await run(async () => {
      const r = await api.del<number>("/api/redemption/delete-disabled");
      toast.success({ key: "redemptions.deletedCount", values: { count: r.data } });
    });
  }

  async function deleteByName(e: FormEvent) {
    e.preventDefault();
    const name = batchName.trim();
    try {
      // the server refuses a blank name with its own message
      const { data: counted } = await api.get<{ count: number }>(`/api/redemption/count-by-name?name=${encodeURIComponent(name)}`);
      if (counted.count === 0) {
        toast.info({ key: "redemptions.byName.none", values: { name } });
        return;
      }
      if (!(await ask(t("byName.title"), t("byName.confirm", { name, count: counted.count })))) return;
      await run(async () => {
        const r = await api.del<{ count: number }>(`/api/redemption/delete-by-name?name=${encodeURIComponent(name)}`);
        toast.success({ key: "redemptions.deletedCount", values: { count: r.data.count } });
        setBatchName("");
      });
    } catch {
      // reported by the API helper
    }
  }

  const columns = redemptionColumns({
    t,
    display,
    actions: { write, busy, setStatus: (c, s) => void setStatus(c, s), edit: setEditing, remove: (c) => void remove(c) },
  });

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <PageTitle
        actions={
          write && (
            <Button onClick={() => setEditing("new")}>
              <Plus aria-hidden className="h-4 w-4" />
              {t("add")}
            </Button>
          )
        }
      >
        {t("title")}
      </PageTitle>
      <div className={write ? "mb-3 flex flex-wrap items-center gap-2" : "hidden"}>
        <Button variant="secondary" disabled={busy || selected.length === 0} onClick={() => void batchDisable()}>
          <Ban aria-hidden className="h-4 w-4" />
          {t("batchDisable", { count: selected.length })}
        </Button>
        <Button variant="danger" disabled={busy} onClick={() => void deleteDisabled()}>
          <Trash2 aria-hidden className="h-4 w-4" />
          {t("deleteDisabled")}
        </Button>
        <form onSubmit={(e) => void deleteByName(e)} className="flex flex-wrap gap-2" aria-label={t("byName.title")}>
          <Input
            aria-label={t("byName.name")}
            placeholder={t("byName.name")}
            value={batchName}
            onChange={(e) => setBatchName(e.target.value)}
            className="w-full sm:w-48"
          />
          <Button type="submit" variant="danger" disabled={busy}>
            {t("byName.submit")}
          </Button>
        </form>
      </div>
      <DataTable<Redemption>
        id="redemptions"
        toolbar={
          <form onSubmit={search} role="search" className="flex flex-wrap gap-2">
            <Input aria-label={t("keyword")} placeholder={t("keyword")} value={draft} onChange={(e) => setDraft(e.target.value)} className="w-full sm:w-72" />
            <Button type="submit">
              <Search aria-hidden className="h-4 w-4" />
              {t("search")}
            </Button>
          </form>
        }
        columns={columns}
        rows={data?.items}
        getRowId={(c) => String(c.id)}
        loading={isLoading || isValidating}
        error={error}
        onRetry={() => void mutate()}
        emptyText={t("empty")}
        errorText={t("loadFailed")}
        rowProps={(c) => ({
          "data-testid": `redemption-row-${c.id}`,
          "data-greyed": isGreyed(c) ? "true" : undefined,
          className: isGreyed(c) ? "opacity-50" : undefined,
        })}
        selection={write ? { selected, onChange: setSelected, rowLabel: (c) => t("select", { name: c.name, id: c.id }), allLabel: t("selectAll") } : undefined}
        paging={
          paging.pageSize === null
            ? undefined
            : { page: paging.page, pageSize: paging.pageSize, total: data?.total ?? 0, onPage: paging.setPage, onPageSize: paging.setPageSize }
        }
      />

      <RedemptionDrawer
        redemption={editing === "new" ? null : editing}
        open={editing !== null}
        onClose={() => setEditing(null)}
        onCreated={(keys) => {
          setEditing(null);
          setCreated(keys);
          void mutate();
        }}
        onSaved={() => {
          setEditing(null);
          void mutate();
        }}
      />
      <CreatedKeysDialog keys={created} onClose={() => setCreated(null)} />
      {confirm.dialog}
    </div>
  );
}
