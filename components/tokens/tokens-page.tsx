"use client";
// /app/tokens (docs/channels-tokens-billing.md): the caller's tokens, search by name and by key,
// create/edit drawer, enable/disable, delete, copy the full key (owner only, from the API).
import { useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import useSWR from "swr";
import { useQuotaDisplay } from "@/components/layout/providers";
import { Badge, type BadgeColor } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Alert, PageTitle } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Pagination } from "@/components/ui/pagination";
import { ListStatusRow, Table, Td, Th } from "@/components/ui/table";
import { api } from "@/lib/client/api";
import { copyText } from "@/lib/client/clipboard";
import { formatTimestamp, renderQuota } from "@/lib/client/format";
import { DEFAULT_PAGE_SIZE } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import { usePageSize } from "@/lib/client/use-page-size";
import { TokenDrawer } from "./token-drawer";
import type { Token, TokenPage } from "./types";

const STATUS_COLOR: Record<number, BadgeColor> = { 1: "green", 2: "red", 3: "yellow", 4: "gray" };
const COLUMNS = 8;

function listPath(q: { keyword: string; token: string }, page: number, size: number): string {
  if (q.keyword.trim() || q.token.trim()) {
    return `/api/token/search?${new URLSearchParams({ keyword: q.keyword.trim(), token: q.token.trim(), p: String(page + 1), size: String(size) })}`;
  }
  return `/api/token/?p=${page + 1}&size=${size}`;
}

export function TokensPage() {
  const t = useTranslations("tokens");
  const display = useQuotaDisplay();
  const [pageSize, setPageSize] = usePageSize();
  const [page, setPage] = useState(0);
  const [draft, setDraft] = useState({ keyword: "", token: "" });
  const [query, setQuery] = useState({ keyword: "", token: "" });
  const [editing, setEditing] = useState<Token | "new" | null>(null);
  const [deleting, setDeleting] = useState<Token | null>(null);
  const [manualCopy, setManualCopy] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const path = pageSize === null ? null : listPath(query, page, pageSize);
  const { data, error, isLoading, mutate } = useSWR<TokenPage>(path);
  useEffect(() => setPage(0), [query, pageSize]);

  function search(e: FormEvent) {
    e.preventDefault();
    setQuery(draft);
  }

  async function copyKey(tok: Token) {
    try {
      const r = await api.post<{ key: string }>(`/api/token/${tok.id}/key`);
      const ok = await copyText(r.data.key, "tokens.keyCopied");
      if (!ok) setManualCopy(r.data.key);
    } catch {
      // reported by the API helper
    }
  }

  async function setStatus(tok: Token, status: 1 | 2) {
    setBusy(true);
    try {
      await api.put("/api/token/?status_only=true", { id: tok.id, status });
      toast.success({ key: status === 1 ? "tokens.enabled" : "tokens.disabled" });
      void mutate();
    } catch {
      // the server's refusal (expired or exhausted) was shown by the API helper
    } finally {
      setBusy(false);
    }
  }

  async function remove(tok: Token) {
    try {
      await api.del(`/api/token/${tok.id}`);
      toast.success({ key: "tokens.deleted" });
      void mutate();
    } catch {
      // reported by the API helper
    }
  }

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <PageTitle actions={<Button onClick={() => setEditing("new")}>{t("add")}</Button>}>{t("title")}</PageTitle>
      <div className="mb-4">
        <Alert tone="warning">{t("ownUseNotice")}</Alert>
      </div>
      <form onSubmit={search} role="search" className="mb-4 flex flex-wrap gap-2">
        <Input
          aria-label={t("keyword")}
          placeholder={t("keyword")}
          value={draft.keyword}
          onChange={(e) => setDraft({ ...draft, keyword: e.target.value })}
          className="max-w-xs"
        />
        <Input
          aria-label={t("tokenSearch")}
          placeholder={t("tokenSearch")}
          value={draft.token}
          onChange={(e) => setDraft({ ...draft, token: e.target.value })}
          className="max-w-xs"
        />
        <Button type="submit">{t("search")}</Button>
      </form>
      <Table>
        <thead>
          <tr>
            {(["name", "status", "key", "used", "remaining", "created", "expires", "actions"] as const).map((c) => (
              <Th key={c}>{t(`col.${c}`)}</Th>
            ))}
          </tr>
        </thead>
        <tbody>
          <ListStatusRow colSpan={COLUMNS} list={{ isLoading, error, data }} t={t} />
          {data?.items.map((tok) => (
            <tr key={tok.id} data-testid={`token-row-${tok.name}`} className={tok.status !== 1 ? "opacity-50" : undefined}>
              <Td>
                <div className="font-medium">{tok.name}</div>
                {tok.group && <div className="text-xs text-zinc-500">{t("groupLabel", { group: tok.group })}</div>}
              </Td>
              <Td>
                <Badge color={STATUS_COLOR[tok.status] ?? "gray"}>{t(`status.${tok.status in STATUS_COLOR ? tok.status : 0}`)}</Badge>
              </Td>
              <Td>
                <div className="flex items-center gap-1">
                  <code className="font-mono text-xs">{tok.key.startsWith("sk-") ? tok.key : `sk-${tok.key}`}</code>
                  <Button size="sm" variant="ghost" onClick={() => void copyKey(tok)} aria-label={t("copyKeyOf", { name: tok.name })}>
                    {t("copy")}
                  </Button>
                </div>
              </Td>
              <Td className="text-xs">{renderQuota(tok.used_quota, display)}</Td>
              <Td className="text-xs">{tok.unlimited_quota ? <Badge color="blue">{t("unlimited")}</Badge> : renderQuota(tok.remain_quota, display)}</Td>
              <Td className="text-xs whitespace-nowrap">{formatTimestamp(tok.created_time)}</Td>
              <Td className="text-xs whitespace-nowrap">{tok.expired_time === -1 ? t("never") : formatTimestamp(tok.expired_time)}</Td>
              <Td>
                <div className="flex gap-1">
                  {tok.status === 1 ? (
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={busy}
                      onClick={() => void setStatus(tok, 2)}
                      aria-label={t("disableOf", { name: tok.name })}
                    >
                      {t("disable")}
                    </Button>
                  ) : (
                    <Button size="sm" variant="secondary" disabled={busy} onClick={() => void setStatus(tok, 1)} aria-label={t("enableOf", { name: tok.name })}>
                      {t("enable")}
                    </Button>
                  )}
                  <Button size="sm" variant="secondary" onClick={() => setEditing(tok)} aria-label={t("editOf", { name: tok.name })}>
                    {t("edit")}
                  </Button>
                  <Button size="sm" variant="danger" onClick={() => setDeleting(tok)} aria-label={t("deleteOf", { name: tok.name })}>
                    {t("delete")}
                  </Button>
                </div>
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Pagination page={page} pageSize={pageSize ?? DEFAULT_PAGE_SIZE} total={data?.total ?? 0} onPage={setPage} onPageSize={setPageSize} />

      <TokenDrawer
        token={editing === "new" ? null : editing}
        open={editing !== null}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void mutate();
        }}
      />
      <Dialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={t("deleteTitle")}
        description={t("deleteConfirm", { name: deleting?.name ?? "" })}
        footer={
          <>
            <Button variant="secondary" onClick={() => setDeleting(null)}>
              {t("cancel")}
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                if (deleting) void remove(deleting);
                setDeleting(null);
              }}
            >
              {t("delete")}
            </Button>
          </>
        }
      />
      <Dialog open={manualCopy !== null} onOpenChange={(o) => !o && setManualCopy(null)} title={t("manualCopyTitle")} description={t("manualCopy")}>
        <Input readOnly value={manualCopy ?? ""} aria-label={t("col.key")} onFocus={(e) => e.target.select()} className="font-mono" />
      </Dialog>
    </div>
  );
}
