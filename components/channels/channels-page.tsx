"use client";
// /admin/channels (docs/channels-tokens-billing.md): filters, tag aggregation, inline priority and
// weight, row actions, batch actions and the model test panel. The server enforces every
// rule; the page shows what it answers.
import Link from "next/link";
import { useTranslations } from "next-intl";
import { Fragment, useEffect, useMemo, useState, type FormEvent } from "react";
import useSWR from "swr";
import { useQuotaDisplay } from "@/components/layout/providers";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PageTitle } from "@/components/ui/card";
import { Dropdown, DropdownItem, DropdownSeparator } from "@/components/ui/dropdown";
import { Input, Select } from "@/components/ui/input";
import { MultiSelect } from "@/components/ui/multi-select";
import { Pagination } from "@/components/ui/pagination";
import { Switch } from "@/components/ui/switch";
import { ListStatusRow, SelectAllHeader, Table, Td, Th } from "@/components/ui/table";
import { Tooltip } from "@/components/ui/tooltip";
import { CHANNEL_TYPES, channelTypeName } from "@/lib/channels/channel-types";
import { api } from "@/lib/client/api";
import { formatTimestamp, renderQuota } from "@/lib/client/format";
import { splitList } from "@/lib/channels/split-list";
import { CHANNEL_STATUS_COLOR, inlinePriority, inlineWeight, parseOtherInfo, responseTimeColor } from "@/lib/client/relay";
import { readItem, readJson, STORAGE_KEYS, writeItem, writeJson, DEFAULT_PAGE_SIZE } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import { usePageSize } from "@/lib/client/use-page-size";
import { BatchTagDialog, ConfirmDialog, EditModelsDialog, TagEditDialog } from "./channel-dialogs";
import { ModelTestDialog, testChannelModel } from "./model-test-dialog";
import { useTestAll } from "./use-test-all";
import { CHANNEL_COLUMNS, type Channel, type ChannelColumn, type ChannelList, type TagRow } from "./types";

type Filters = { keyword: string; group: string; model: string; types: string[]; statuses: string[]; tags: string[] };
const EMPTY: Filters = { keyword: "", group: "", model: "", types: [], statuses: [], tags: [] };

function listPath(f: Filters, page: number, pageSize: number, idSort: boolean, tagMode: boolean): string {
  const base = { p: String(page + 1), page_size: String(pageSize), id_sort: String(idSort), tag_mode: String(tagMode) };
  const filtered = f.keyword.trim() || f.group || f.model.trim() || f.types.length || f.statuses.length || f.tags.length;
  if (!filtered) return `/api/channel/?${new URLSearchParams(base)}`;
  const q = new URLSearchParams({
    ...base,
    keyword: f.keyword.trim(),
    group: f.group,
    model: f.model.trim(),
    types: f.types.join(","),
    statuses: f.statuses.join(","),
    tags: f.tags.join(","),
  });
  return `/api/channel/search?${q}`;
}

// Remembered choices (column set, tag mode), read after mount.
function useRemembered() {
  const [columns, setColumns] = useState<ChannelColumn[]>([...CHANNEL_COLUMNS]);
  const [tagMode, setTagMode] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const saved = readJson<string[]>(STORAGE_KEYS.channelColumns);
    if (Array.isArray(saved)) setColumns(CHANNEL_COLUMNS.filter((c) => saved.includes(c)));
    setTagMode(readItem(STORAGE_KEYS.channelTagMode) === "true");
    setReady(true);
  }, []);
  return {
    ready,
    columns,
    tagMode,
    setColumns: (c: ChannelColumn[]) => {
      writeJson(STORAGE_KEYS.channelColumns, c);
      setColumns(c);
    },
    setTagMode: (v: boolean) => {
      writeItem(STORAGE_KEYS.channelTagMode, String(v));
      setTagMode(v);
    },
  };
}

// An input that commits on blur or Enter when its text changed.
function InlineNumber({ value, label, onCommit }: { value: number | null; label: string; onCommit: (text: string) => Promise<boolean> }) {
  const [text, setText] = useState(value === null ? "" : String(value));
  useEffect(() => setText(value === null ? "" : String(value)), [value]);
  async function commit() {
    if (text === (value === null ? "" : String(value))) return;
    const ok = await onCommit(text);
    if (!ok) setText(value === null ? "" : String(value));
  }
  return (
    <Input
      aria-label={label}
      inputMode="numeric"
      className="h-8 max-w-20"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={() => void commit()}
      onKeyDown={(e) => {
        if (e.key === "Enter") (e.target as HTMLInputElement).blur();
      }}
    />
  );
}

function StatusBadge({ status, otherInfo }: { status: number; otherInfo?: string }) {
  const t = useTranslations("channels.status");
  const badge = <Badge color={CHANNEL_STATUS_COLOR[status] ?? "gray"}>{t(String(status in CHANNEL_STATUS_COLOR ? status : 0))}</Badge>;
  if (status !== 3) return badge;
  const info = parseOtherInfo(otherInfo);
  return (
    <Tooltip
      content={
        <div className="flex flex-col gap-1">
          <span>{t("reason", { reason: info.status_reason || "—" })}</span>
          <span>{t("time", { time: formatTimestamp(info.status_time) || "—" })}</span>
        </div>
      }
    >
      <button type="button" className="cursor-help" aria-label={t("details")}>
        {badge}
      </button>
    </Tooltip>
  );
}

export function ChannelsPage() {
  const t = useTranslations("channels");
  const te = useTranslations("errors");
  const display = useQuotaDisplay();
  const remembered = useRemembered();
  const [pageSize, setPageSize] = usePageSize();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [idSort, setIdSort] = useState(false);
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<number[]>([]);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [testing, setTesting] = useState<Channel | null>(null);
  const [editingModels, setEditingModels] = useState<Channel | null>(null);
  const [editingTag, setEditingTag] = useState<TagRow | null>(null);
  const [batchTag, setBatchTag] = useState(false);
  const [confirm, setConfirm] = useState<null | { title: string; description: string; confirm: string; run: () => void }>(null);
  const [busy, setBusy] = useState(false);

  const { data: groups } = useSWR<string[]>("/api/group/");
  const { data: tags, mutate: mutateTags } = useSWR<string[]>("/api/channel/tags?offset=0&limit=200");
  const path = pageSize === null || !remembered.ready ? null : listPath(filters, page, pageSize, idSort, remembered.tagMode);
  const { data, error, isLoading, mutate } = useSWR<ChannelList>(path);
  useEffect(() => setPage(0), [filters, pageSize, idSort, remembered.tagMode]);
  useEffect(() => setSelected([]), [data]);

  const refresh = () => {
    void mutate();
    void mutateTags();
  };
  const cols = new Set(remembered.columns);
  const colCount = remembered.columns.length + 1;

  // Every plain channel on the page (children of tag rows included), for selection.
  const pageChannels = useMemo(() => (data?.items ?? []).flatMap((r) => (r.is_tag ? r.children : [r])), [data]);

  function search(e: FormEvent) {
    e.preventDefault();
    setFilters(draft);
  }

  async function act<T>(fn: () => Promise<T>, done?: (r: T) => void) {
    setBusy(true);
    try {
      const r = await fn();
      done?.(r);
      refresh();
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  const setStatus = (c: Channel, status: 1 | 2) =>
    act(
      () => api.put("/api/channel/", { id: c.id, status }),
      () => toast.success({ key: status === 1 ? "channels.enabled" : "channels.disabled" }),
    );
  const setTagStatus = (tag: string, status: 1 | 2) =>
    act(
      () => api.post(`/api/channel/tag/${status === 1 ? "enabled" : "disabled"}`, { tag }),
      () => toast.success({ key: status === 1 ? "channels.enabled" : "channels.disabled" }),
    );

  async function commitPriority(row: Channel | TagRow, text: string): Promise<boolean> {
    const p = inlinePriority(text);
    if ("error" in p) {
      toast.error({ key: "channels.priorityInteger" });
      return false;
    }
    try {
      if (row.is_tag) await api.put("/api/channel/tag", { tag: row.tag, priority: p.value });
      else await api.put("/api/channel/", { id: row.id, priority: p.value });
      toast.success({ key: "channels.saved" });
      void mutate();
      return true;
    } catch {
      return false;
    }
  }

  async function commitWeight(row: Channel | TagRow, text: string): Promise<boolean> {
    const w = inlineWeight(text);
    if ("error" in w) {
      toast.error({ key: "channels.weightNonNegative" });
      return false;
    }
    try {
      if (row.is_tag) await api.put("/api/channel/tag", { tag: row.tag, weight: w.value });
      else await api.put("/api/channel/", { id: row.id, weight: w.value });
      toast.success({ key: "channels.saved" });
      void mutate();
      return true;
    } catch {
      return false;
    }
  }

  // Test one channel with its test model (or its first model): the server's answer is shown.
  async function testOne(c: Channel) {
    const model = c.test_model || splitList(c.models)[0] || "";
    toast.info({ key: "channels.testing", values: { name: c.name } });
    const r = await testChannelModel(c.id, model, te);
    if (r.success) toast.success({ key: "channels.testOk", values: { name: c.name, time: r.time.toFixed(2) } });
    else toast.error({ key: "channels.testFailed", values: { name: c.name, message: r.message } });
    void mutate();
  }

  const testAll = useTestAll(te, refresh);

  const refreshBalance = (c: Channel) =>
    act(
      () => api.get<{ balance: number }>(`/api/channel/update_balance/${c.id}`),
      (r) => toast.success({ key: "channels.balanceUpdated", values: { name: c.name, balance: r.data.balance.toFixed(2) } }),
    );
  const refreshAllBalances = () =>
    act(
      () => api.get<{ updated: number; failed: number; skipped: number }>("/api/channel/update_balance"),
      (r) => toast.success({ key: "channels.balancesUpdated", values: r.data }),
    );

  const toggleSelect = (id: number) => setSelected(selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id]);

  function channelRow(c: Channel, child = false) {
    return (
      <tr key={c.id} data-testid={`channel-row-${c.id}`} className={child ? "bg-zinc-50/60 dark:bg-zinc-900/60" : undefined}>
        <Td>
          <input
            type="checkbox"
            className="h-4 w-4 accent-blue-600"
            aria-label={t("select", { name: c.name })}
            checked={selected.includes(c.id)}
            onChange={() => toggleSelect(c.id)}
          />
        </Td>
        {cols.has("id") && <Td>{c.id}</Td>}
        {cols.has("name") && (
          <Td className={child ? "pl-8" : undefined}>
            <div className="font-medium">{c.name}</div>
            {c.tag && !child && <div className="text-xs text-zinc-500">#{c.tag}</div>}
            {c.remark && <div className="text-xs text-zinc-400">{c.remark}</div>}
          </Td>
        )}
        {cols.has("group") && (
          <Td>
            <div className="flex flex-wrap gap-1">
              {splitList(c.group).map((g) => (
                <Badge key={g} color="blue">
                  {g}
                </Badge>
              ))}
            </div>
          </Td>
        )}
        {cols.has("type") && <Td className="whitespace-nowrap">{channelTypeName(c.type)}</Td>}
        {cols.has("status") && (
          <Td>
            <StatusBadge status={c.status} otherInfo={c.other_info} />
          </Td>
        )}
        {cols.has("responseTime") && (
          <Td>
            <Tooltip content={t("testedAt", { time: formatTimestamp(c.test_time) || t("never") })}>
              <span tabIndex={0}>
                <Badge color={responseTimeColor(c.response_time)}>{c.response_time ? `${(c.response_time / 1000).toFixed(2)}s` : t("notTested")}</Badge>
              </span>
            </Tooltip>
          </Td>
        )}
        {cols.has("balance") && (
          <Td className="text-xs whitespace-nowrap">
            <div>{t("used", { quota: renderQuota(c.used_quota, display) })}</div>
            <button type="button" className="text-blue-600 hover:underline dark:text-blue-400" onClick={() => refreshBalance(c)} title={t("refreshBalance")}>
              {t("remaining", { balance: `$${c.balance.toFixed(2)}` })}
            </button>
          </Td>
        )}
        {cols.has("priority") && (
          <Td>
            <InlineNumber value={c.priority} label={t("priorityOf", { name: c.name })} onCommit={(v) => commitPriority(c, v)} />
          </Td>
        )}
        {cols.has("weight") && (
          <Td>
            <InlineNumber value={c.weight} label={t("weightOf", { name: c.name })} onCommit={(v) => commitWeight(c, v)} />
          </Td>
        )}
        {cols.has("operate") && (
          <Td>
            <div className="flex items-center gap-1">
              <Button size="sm" variant="secondary" disabled={busy} onClick={() => void testOne(c)} aria-label={t("testChannel", { name: c.name })}>
                {t("actions.test")}
              </Button>
              {c.status === 1 ? (
                <Button size="sm" variant="secondary" disabled={busy} onClick={() => setStatus(c, 2)} aria-label={t("disableChannel", { name: c.name })}>
                  {t("actions.disable")}
                </Button>
              ) : (
                <Button size="sm" variant="secondary" disabled={busy} onClick={() => setStatus(c, 1)} aria-label={t("enableChannel", { name: c.name })}>
                  {t("actions.enable")}
                </Button>
              )}
              <Link
                href={`/channel/edit/${c.id}`}
                className="inline-flex h-8 items-center rounded-md px-3 text-sm font-medium text-blue-700 hover:bg-blue-50 dark:text-blue-400 dark:hover:bg-zinc-800"
              >
                {t("actions.edit")}
              </Link>
              <Dropdown
                label={t("moreFor", { name: c.name })}
                trigger={
                  <Button size="sm" variant="ghost">
                    ⋯
                  </Button>
                }
              >
                <DropdownItem onSelect={() => setTesting(c)}>{t("actions.testModels")}</DropdownItem>
                <DropdownItem onSelect={() => setEditingModels(c)}>{t("actions.editModels")}</DropdownItem>
                <DropdownItem onSelect={() => refreshBalance(c)}>{t("refreshBalance")}</DropdownItem>
                <DropdownItem
                  onSelect={() =>
                    setConfirm({
                      title: t("copyTitle", { name: c.name }),
                      description: t("copyDescription", { name: c.name }),
                      confirm: t("actions.copy"),
                      run: () =>
                        act(
                          () => api.post(`/api/channel/copy/${c.id}`),
                          () => toast.success({ key: "channels.copied" }),
                        ),
                    })
                  }
                >
                  {t("actions.copy")}
                </DropdownItem>
                <DropdownSeparator />
                <DropdownItem
                  onSelect={() =>
                    setConfirm({
                      title: t("deleteTitle"),
                      description: t("deleteConfirm", { name: c.name }),
                      confirm: t("actions.delete"),
                      run: () =>
                        act(
                          () => api.del(`/api/channel/${c.id}`),
                          () => toast.success({ key: "channels.deleted" }),
                        ),
                    })
                  }
                >
                  <span className="text-red-600 dark:text-red-400">{t("actions.delete")}</span>
                </DropdownItem>
              </Dropdown>
            </div>
          </Td>
        )}
      </tr>
    );
  }

  function tagRow(r: TagRow) {
    const open = expanded.includes(r.tag);
    const childIds = r.children.map((c) => c.id);
    const allChildren = childIds.every((id) => selected.includes(id));
    return (
      <Fragment key={`tag-${r.tag}`}>
        <tr data-testid={`tag-row-${r.tag}`} className="bg-blue-50/40 dark:bg-blue-950/20">
          <Td>
            <input
              type="checkbox"
              className="h-4 w-4 accent-blue-600"
              aria-label={t("select", { name: r.tag })}
              checked={allChildren}
              onChange={() => setSelected(allChildren ? selected.filter((id) => !childIds.includes(id)) : [...new Set([...selected, ...childIds])])}
            />
          </Td>
          {cols.has("id") && <Td />}
          {cols.has("name") && (
            <Td>
              <button
                type="button"
                aria-expanded={open}
                className="flex items-center gap-1 font-medium"
                onClick={() => setExpanded(open ? expanded.filter((x) => x !== r.tag) : [...expanded, r.tag])}
              >
                <span aria-hidden>{open ? "▾" : "▸"}</span>
                <Badge color="purple">{t("tagLabel")}</Badge> {r.tag}
                <span className="text-xs font-normal text-zinc-500">({r.children.length})</span>
              </button>
            </Td>
          )}
          {cols.has("group") && (
            <Td>
              <div className="flex flex-wrap gap-1">
                {splitList(r.group).map((g) => (
                  <Badge key={g} color="blue">
                    {g}
                  </Badge>
                ))}
              </div>
            </Td>
          )}
          {cols.has("type") && <Td>{r.type === null ? t("mixed") : channelTypeName(r.type)}</Td>}
          {cols.has("status") && (
            <Td>
              <StatusBadge status={r.status} />
            </Td>
          )}
          {cols.has("responseTime") && (
            <Td>
              <Badge color={responseTimeColor(r.response_time)}>{r.response_time ? `${(r.response_time / 1000).toFixed(2)}s` : t("notTested")}</Badge>
            </Td>
          )}
          {cols.has("balance") && <Td className="text-xs">{t("used", { quota: renderQuota(r.used_quota, display) })}</Td>}
          {cols.has("priority") && (
            <Td>
              <InlineNumber value={r.priority} label={t("priorityOf", { name: r.tag })} onCommit={(v) => commitPriority(r, v)} />
            </Td>
          )}
          {cols.has("weight") && (
            <Td>
              <InlineNumber value={r.weight} label={t("weightOf", { name: r.tag })} onCommit={(v) => commitWeight(r, v)} />
            </Td>
          )}
          {cols.has("operate") && (
            <Td>
              <div className="flex items-center gap-1">
                <Button size="sm" variant="secondary" disabled={busy} onClick={() => setTagStatus(r.tag, 1)} aria-label={t("enableTag", { tag: r.tag })}>
                  {t("actions.enableAll")}
                </Button>
                <Button size="sm" variant="secondary" disabled={busy} onClick={() => setTagStatus(r.tag, 2)} aria-label={t("disableTag", { tag: r.tag })}>
                  {t("actions.disableAll")}
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setEditingTag(r)} aria-label={t("editTag", { tag: r.tag })}>
                  {t("actions.edit")}
                </Button>
              </div>
            </Td>
          )}
        </tr>
        {open && r.children.map((c) => channelRow(c, true))}
      </Fragment>
    );
  }

  const statusOptions = [1, 2, 3].map((s) => ({ value: String(s), label: t(`status.${s}`) }));
  const typeOptions = CHANNEL_TYPES.map((ty) => ({
    value: String(ty.id),
    label: (
      <span>
        {ty.name}
        {data?.type_counts?.[ty.id] ? <span className="ml-1 text-xs text-zinc-500">({data.type_counts[ty.id]})</span> : null}
      </span>
    ),
  }));

  return (
    <div className="mx-auto w-full max-w-[90rem] px-4 py-6">
      <PageTitle
        actions={
          <div className="flex flex-wrap gap-2">
            <Link href="/channel/add" className="inline-flex h-9 items-center rounded-md bg-blue-600 px-4 text-sm font-medium text-white hover:bg-blue-700">
              {t("add")}
            </Link>
            <Button variant="secondary" disabled={busy} onClick={() => void testAll.start()}>
              {t("testAll")}
            </Button>
            <Button variant="secondary" disabled={busy} onClick={refreshAllBalances}>
              {t("refreshAllBalances")}
            </Button>
            <Dropdown label={t("moreActions")} trigger={<Button variant="secondary">{t("moreActions")}</Button>}>
              <DropdownItem
                onSelect={() => {
                  if (!selected.length) toast.error({ key: "channels.selectFirst" });
                  else setBatchTag(true);
                }}
              >
                {t("batchTag")}
              </DropdownItem>
              <DropdownItem
                onSelect={() => {
                  if (!selected.length) {
                    toast.error({ key: "channels.selectFirst" });
                    return;
                  }
                  setConfirm({
                    title: t("batchDeleteTitle"),
                    description: t("batchDeleteConfirm", { count: selected.length }),
                    confirm: t("actions.delete"),
                    run: () =>
                      act(
                        () => api.post<number>("/api/channel/batch", { ids: selected }),
                        (r) => toast.success({ key: "channels.deletedCount", values: { count: r.data } }),
                      ),
                  });
                }}
              >
                {t("batchDelete")}
              </DropdownItem>
              <DropdownItem
                onSelect={() =>
                  setConfirm({
                    title: t("deleteDisabledTitle"),
                    description: t("deleteDisabledConfirm"),
                    confirm: t("actions.delete"),
                    run: () =>
                      act(
                        () => api.del<number>("/api/channel/disabled"),
                        (r) => toast.success({ key: "channels.deletedCount", values: { count: r.data } }),
                      ),
                  })
                }
              >
                {t("deleteDisabled")}
              </DropdownItem>
              <DropdownItem
                onSelect={() =>
                  setConfirm({
                    title: t("fixTitle"),
                    description: t("fixConfirm"),
                    confirm: t("fix"),
                    run: () =>
                      act(
                        () => api.post<number>("/api/channel/fix"),
                        (r) => toast.success({ key: "channels.fixed", values: { count: r.data } }),
                      ),
                  })
                }
              >
                {t("fix")}
              </DropdownItem>
            </Dropdown>
          </div>
        }
      >
        {t("title")}
      </PageTitle>
      {testAll.progress && (
        <p role="status" data-testid="test-all-progress" className="-mt-3 mb-3 text-sm text-zinc-600 dark:text-zinc-400">
          {t("testAllProgress", {
            tested: testAll.progress.tested,
            total: testAll.progress.total,
            passed: testAll.progress.passed,
            failed: testAll.progress.failed,
          })}
        </p>
      )}

      <form onSubmit={search} role="search" className="mb-3 flex flex-wrap items-center gap-2">
        <Input
          aria-label={t("keyword")}
          placeholder={t("keywordPlaceholder")}
          value={draft.keyword}
          onChange={(e) => setDraft({ ...draft, keyword: e.target.value })}
          className="max-w-56"
        />
        <Input
          aria-label={t("modelFilter")}
          placeholder={t("modelFilter")}
          value={draft.model}
          onChange={(e) => setDraft({ ...draft, model: e.target.value })}
          className="max-w-44"
        />
        <Select aria-label={t("groupFilter")} value={draft.group} onChange={(e) => setDraft({ ...draft, group: e.target.value })} className="max-w-48">
          <option value="">{t("allGroups")}</option>
          {(groups ?? []).map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </Select>
        <MultiSelect label={t("typesFilter")} options={typeOptions} value={draft.types} onChange={(types) => setDraft({ ...draft, types })} />
        <MultiSelect label={t("statusesFilter")} options={statusOptions} value={draft.statuses} onChange={(statuses) => setDraft({ ...draft, statuses })} />
        <MultiSelect
          label={t("tagsFilter")}
          options={(tags ?? []).map((x) => ({ value: x, label: x }))}
          value={draft.tags}
          onChange={(ts) => setDraft({ ...draft, tags: ts })}
        />
        <Button type="submit">{t("search")}</Button>
        <Button
          variant="ghost"
          onClick={() => {
            setDraft(EMPTY);
            setFilters(EMPTY);
          }}
        >
          {t("reset")}
        </Button>
      </form>
      <div className="mb-3 flex flex-wrap items-center gap-5">
        <Switch checked={idSort} onChange={setIdSort} label={t("idSort")} />
        <Switch checked={remembered.tagMode} onChange={remembered.setTagMode} label={t("tagMode")} />
        <MultiSelect
          label={t("columns")}
          options={CHANNEL_COLUMNS.map((c) => ({ value: c, label: t(`col.${c}`) }))}
          value={remembered.columns}
          onChange={(v) => remembered.setColumns(CHANNEL_COLUMNS.filter((c) => v.includes(c)))}
        />
        {selected.length > 0 && <span className="text-sm text-zinc-600 dark:text-zinc-400">{t("selectedCount", { count: selected.length })}</span>}
      </div>

      <Table>
        <thead>
          <tr>
            <SelectAllHeader label={t("selectAll")} rowIds={pageChannels.map((c) => c.id)} selected={selected} onSelect={setSelected} />
            {remembered.columns.map((c) => (
              <Th key={c}>{t(`col.${c}`)}</Th>
            ))}
          </tr>
        </thead>
        <tbody>
          <ListStatusRow colSpan={colCount} list={{ isLoading, error, data }} t={t} />
          {data?.items.map((r) => (r.is_tag ? tagRow(r) : channelRow(r)))}
        </tbody>
      </Table>
      <Pagination page={page} pageSize={pageSize ?? DEFAULT_PAGE_SIZE} total={data?.total ?? 0} onPage={setPage} onPageSize={setPageSize} />

      <ModelTestDialog channel={testing} onClose={() => setTesting(null)} onModelsChanged={refresh} />
      <EditModelsDialog channel={editingModels} onClose={() => setEditingModels(null)} onSaved={refresh} />
      <TagEditDialog row={editingTag} groups={groups ?? []} onClose={() => setEditingTag(null)} onSaved={refresh} />
      <BatchTagDialog open={batchTag} ids={selected} onClose={() => setBatchTag(false)} onSaved={refresh} />
      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.title}
        description={confirm?.description}
        confirm={confirm?.confirm}
        onConfirm={() => confirm?.run()}
        onClose={() => setConfirm(null)}
      />
    </div>
  );
}
