"use client";
// /app/tokens (docs/channels-tokens-billing.md): the caller's tokens, search by name and by key,
// create/edit drawer, enable/disable, delete, copy the full key (owner only, from the API), on the
// console's DataTable (docs/console-ui.md).
import { useTranslations } from "next-intl";
import { Plus, Search } from "lucide-react";
import { useState, type FormEvent } from "react";
import useSWR from "swr";
import { useQuotaDisplay, useStatus } from "@/components/layout/providers";
import { DataTable, useServerPaging } from "@/components/data-table";
import { Button } from "@/components/ui/button";
import { Alert, PageTitle } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { api } from "@/lib/client/api";
import { copyText } from "@/lib/client/clipboard";
import { toast } from "@/lib/client/toast";
import { tokenColumns } from "./token-columns";
import { hasLimits } from "@/components/limits/token-limits-cell";
import { useTokensLimitUsage } from "@/components/limits/use-limit-usage";
import { TokenDrawer } from "./token-drawer";
import type { Token, TokenPage } from "./types";
import { TOKEN_STATUS } from "@/lib/statuses";

function listPath(q: { keyword: string; token: string }, page: number, size: number): string {
  if (q.keyword.trim() || q.token.trim()) {
    return `/api/token/search?${new URLSearchParams({ keyword: q.keyword.trim(), token: q.token.trim(), p: String(page + 1), size: String(size) })}`;
  }
  return `/api/token/?p=${page + 1}&size=${size}`;
}

export function TokensPage() {
  const t = useTranslations("tokens");
  const display = useQuotaDisplay();
  const chatContentLogged = useStatus().log_chat_content_enabled;
  const [draft, setDraft] = useState({ keyword: "", token: "" });
  const [query, setQuery] = useState({ keyword: "", token: "" });
  const paging = useServerPaging(query);
  const [editing, setEditing] = useState<Token | "new" | null>(null);
  const [deleting, setDeleting] = useState<Token | null>(null);
  const [manualCopy, setManualCopy] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const path = paging.pageSize === null ? null : listPath(query, paging.page, paging.pageSize);
  const { data, error, isLoading, mutate } = useSWR<TokenPage>(path);

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
      toast.success({ key: status === TOKEN_STATUS.enabled ? "tokens.enabled" : "tokens.disabled" });
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

  // one usage call for the page's tokens that have limits (docs/console-ui.md, "Limits")
  const usage = useTokensLimitUsage((data?.items ?? []).filter(hasLimits).map((tok) => tok.id));
  const columns = tokenColumns({
    t,
    display,
    usage,
    actions: { busy, copyKey: (tok) => void copyKey(tok), setStatus: (tok, s) => void setStatus(tok, s), edit: setEditing, remove: setDeleting },
  });

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <PageTitle
        actions={
          <Button onClick={() => setEditing("new")}>
            <Plus aria-hidden className="h-4 w-4" />
            {t("add")}
          </Button>
        }
      >
        {t("title")}
      </PageTitle>
      <div className="mb-4 flex flex-col gap-2">
        <Alert tone="warning">{t("ownUseNotice")}</Alert>
        {chatContentLogged && <Alert tone="warning">{t("chatContentNotice")}</Alert>}
      </div>
      <DataTable<Token>
        id="tokens"
        toolbar={
          <form onSubmit={search} role="search" className="flex flex-wrap gap-2">
            <Input
              aria-label={t("keyword")}
              placeholder={t("keyword")}
              value={draft.keyword}
              onChange={(e) => setDraft({ ...draft, keyword: e.target.value })}
              className="w-full sm:w-64"
            />
            <Input
              aria-label={t("tokenSearch")}
              placeholder={t("tokenSearch")}
              value={draft.token}
              onChange={(e) => setDraft({ ...draft, token: e.target.value })}
              className="w-full sm:w-64"
            />
            <Button type="submit">
              <Search aria-hidden className="h-4 w-4" />
              {t("search")}
            </Button>
          </form>
        }
        columns={columns}
        rows={data?.items}
        getRowId={(tok) => String(tok.id)}
        loading={isLoading}
        error={error}
        onRetry={() => void mutate()}
        emptyText={t("empty")}
        errorText={t("loadFailed")}
        rowProps={(tok) => ({ "data-testid": `token-row-${tok.name}`, className: tok.status !== TOKEN_STATUS.enabled ? "opacity-50" : undefined })}
        paging={
          paging.pageSize === null
            ? undefined
            : { page: paging.page, pageSize: paging.pageSize, total: data?.total ?? 0, onPage: paging.setPage, onPageSize: paging.setPageSize }
        }
      />

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
