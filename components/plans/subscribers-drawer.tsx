"use client";
// One plan's subscribers (docs/console-ui.md, "Plans"): who holds it, since and until when,
// the period's meter, and the admin's hand: grant the plan to a user picked by a search,
// revoke a subscription, reset its period. Each change is confirmed by a dialog that names
// the user and the plan, and its toast says what changed.
import type { ColumnDef } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import { RotateCcw, Search, UserPlus, X } from "lucide-react";
import { useMemo, useState, type FormEvent } from "react";
import useSWR from "swr";
import { DataTable, useClientPaging } from "@/components/data-table";
import { useConfirm } from "@/components/forms";
import { useQuotaDisplay } from "@/components/layout/providers";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Drawer } from "@/components/ui/dialog";
import { Input, Select } from "@/components/ui/input";
import { api } from "@/lib/client/api";
import { formatTimestamp } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";
import type { Page } from "@/lib/client/user";
import { PlanMeter, subscriptionColor } from "./plan-meter";
import { grantPath, planSubscribers, resetPath, subscriptionPath } from "./paths";
import type { Plan, Subscription } from "./types";

type PickUser = { id: number; username: string; display_name: string; group: string };
type Pending = { kind: "grant"; user: PickUser } | { kind: "revoke" | "reset"; sub: Subscription };

function UserSearch({ onPick, busy }: { onPick: (u: PickUser) => void; busy: boolean }) {
  const t = useTranslations("plans.subs");
  const [draft, setDraft] = useState("");
  const [keyword, setKeyword] = useState<string | null>(null);
  const path = keyword ? `/api/user/search?${new URLSearchParams({ keyword, p: "1", page_size: "5" })}` : null;
  const { data } = useSWR<Page<PickUser>>(path);
  function search(e: FormEvent) {
    e.preventDefault();
    setKeyword(draft.trim() || null);
  }
  return (
    <div className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800" data-testid="plan-grant">
      <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{t("grantHeading")}</h3>
      <form onSubmit={search} role="search" className="flex gap-2">
        <Input aria-label={t("userSearch")} placeholder={t("userSearch")} value={draft} onChange={(e) => setDraft(e.target.value)} className="min-w-0 flex-1" />
        <Button type="submit" variant="secondary">
          <Search aria-hidden className="h-4 w-4" />
          {t("search")}
        </Button>
      </form>
      {keyword && data && data.items.length === 0 && <p className="text-sm text-zinc-500">{t("noUser")}</p>}
      {data && data.items.length > 0 && (
        <ul className="flex flex-col divide-y divide-zinc-100 dark:divide-zinc-800">
          {data.items.map((u) => (
            <li key={u.id} className="flex items-center justify-between gap-2 py-1.5 text-sm">
              <span className="min-w-0 truncate text-zinc-800 dark:text-zinc-200">
                <span className="font-medium">{u.username}</span>
                <span className="text-zinc-500"> #{u.id}</span>
                {u.display_name && u.display_name !== u.username && <span className="text-zinc-500"> · {u.display_name}</span>}
              </span>
              <Button size="sm" disabled={busy} onClick={() => onPick(u)} aria-label={t("grantTo", { name: u.username })}>
                <UserPlus aria-hidden className="h-3.5 w-3.5" />
                {t("grant")}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

// write: the viewer holds billing:write (docs/permissions.md); without it the drawer only lists
export function SubscribersDrawer({ plan, write, onClose }: { plan: Plan | null; write: boolean; onClose: () => void }) {
  const t = useTranslations("plans.subs");
  const tp = useTranslations("plans");
  const display = useQuotaDisplay();
  const [status, setStatus] = useState<"active" | "all">("active");
  const { data: rows, error, isLoading, isValidating, mutate } = useSWR<Subscription[]>(plan ? planSubscribers(plan.id, status) : null);
  const { pageRows, paging } = useClientPaging(rows);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const planName = plan?.name ?? "";
  const who = (p: Pending | null) => (p === null ? "" : p.kind === "grant" ? p.user.username : (p.sub.username ?? `#${p.sub.user_id}`));
  const confirm = useConfirm({
    title: pending ? t(`${pending.kind}Title`) : "",
    description: pending ? t(`${pending.kind}Confirm`, { name: who(pending), plan: planName }) : "",
    action: pending ? t(pending.kind) : "",
    danger: pending?.kind === "revoke",
  });

  async function act(p: Pending) {
    setPending(p);
    if (!(await confirm.ask())) return;
    setBusy(true);
    try {
      if (p.kind === "grant") await api.post(grantPath(p.user.id), { plan_id: plan?.id });
      else if (p.kind === "revoke") await api.del(subscriptionPath(p.sub.user_id, p.sub.id));
      else await api.post(resetPath(p.sub.user_id, p.sub.id), {});
      toast.success({ key: `plans.subs.${p.kind}Done`, values: { name: who(p), plan: planName } });
      void mutate();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  const columns = useMemo<ColumnDef<Subscription>[]>(() => {
    const cols: ColumnDef<Subscription>[] = [
      {
        id: "user",
        meta: { label: t("col.user"), hideable: false },
        cell: ({ row: { original: s } }) => (
          <>
            <div className="font-medium">{s.username ?? `#${s.user_id}`}</div>
            <Badge color={subscriptionColor(s.status)}>{tp(`status.${s.status}`)}</Badge>
          </>
        ),
      },
      {
        id: "period",
        meta: { label: t("col.period"), className: "min-w-48" },
        cell: ({ row: { original: s } }) => <PlanMeter sub={s} display={display} compact />,
      },
      {
        id: "dates",
        meta: { label: t("col.dates"), className: "text-xs whitespace-nowrap" },
        cell: ({ row: { original: s } }) => (
          <>
            <div>{t("since", { time: formatTimestamp(s.starts_at) })}</div>
            <div className="text-zinc-500">{t("until", { time: formatTimestamp(s.ends_at) })}</div>
          </>
        ),
      },
      {
        id: "actions",
        meta: { label: t("col.actions"), hideable: false },
        cell: ({ row: { original: s } }) =>
          s.status === "active" ? (
            <div className="flex gap-1">
              <Button
                size="sm"
                variant="secondary"
                disabled={busy}
                onClick={() => void act({ kind: "reset", sub: s })}
                aria-label={t("resetOf", { name: s.username ?? s.user_id })}
              >
                <RotateCcw aria-hidden className="h-3.5 w-3.5" />
                {t("reset")}
              </Button>
              <Button
                size="sm"
                variant="danger"
                disabled={busy}
                onClick={() => void act({ kind: "revoke", sub: s })}
                aria-label={t("revokeOf", { name: s.username ?? s.user_id })}
              >
                <X aria-hidden className="h-3.5 w-3.5" />
                {t("revoke")}
              </Button>
            </div>
          ) : null,
      },
    ];
    return cols.filter((c) => write || c.id !== "actions").map((c) => Object.assign(c, { header: c.meta?.label ?? "" }) as ColumnDef<Subscription>);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- act reads the latest state through setPending
  }, [t, tp, display, busy, planName, write]);

  return (
    <Drawer open={plan !== null} onOpenChange={(o) => !o && onClose()} title={t("title", { plan: planName })} description={t("description")}>
      <div className="flex flex-col gap-4" data-testid="plan-subscribers">
        {write && <UserSearch busy={busy} onPick={(user) => void act({ kind: "grant", user })} />}
        <DataTable<Subscription>
          id="plan-subscribers"
          toolbar={
            <Select aria-label={t("show")} value={status} onChange={(e) => setStatus(e.target.value === "all" ? "all" : "active")} className="w-auto">
              <option value="active">{t("showActive")}</option>
              <option value="all">{t("showAll")}</option>
            </Select>
          }
          columns={columns}
          rows={pageRows}
          getRowId={(s) => String(s.id)}
          loading={isLoading || isValidating}
          error={error}
          onRetry={() => void mutate()}
          emptyText={t("empty")}
          errorText={t("loadFailed")}
          rowProps={(s) => ({ "data-testid": `subscriber-row-${s.username ?? s.user_id}` })}
          paging={paging}
        />
      </div>
      {confirm.dialog}
    </Drawer>
  );
}
