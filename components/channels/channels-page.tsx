"use client";
// /admin/channels (docs/channels-tokens-billing.md): filters, tag aggregation, inline priority and
// weight, row actions, batch actions and the model test panel, on the console's DataTable
// (docs/console-ui.md). The server enforces every rule; the page shows what it answers.
// Parts: channel-columns.tsx (cells), channel-row-actions.tsx, channel-filters.tsx,
// channel-batch-actions.tsx, use-channel-actions.ts.
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import useSWR from "swr";
import { nowSeconds } from "@/lib/time";
import type { PerfRow } from "@/lib/client/perf";
import { DataTable, useServerPaging } from "@/components/data-table";
import { useQuotaDisplay, useSessionUser } from "@/components/layout/providers";
import { can } from "@/lib/client/navigation";
import { PageTitle } from "@/components/ui/card";
import { Switch } from "@/components/ui/switch";
import { readItem, STORAGE_KEYS, writeItem } from "@/lib/client/storage";
import { ChannelBatchActions } from "./channel-batch-actions";
import { channelColumns, type ChannelRow } from "./channel-columns";
import { BatchTagDialog, ConfirmDialog, EditModelsDialog, RevealKeyDialog, TagEditDialog } from "./channel-dialogs";
import { ChannelFilterForm, channelListPath, EMPTY_FILTERS, type ChannelFilters } from "./channel-filters";
import type { ChannelDialogs, ChannelRights, Confirmation } from "./channel-row-actions";
import { FreshFactorHost } from "@/components/me/fresh-factor";
import { ModelTestDialog } from "./model-test-dialog";
import { useChannelActions } from "./use-channel-actions";
import { useTestAll } from "./use-test-all";
import type { Channel, ChannelList, TagRow } from "./types";

// Tag mode is remembered locally; read after mount, and the list waits for it.
function useTagMode(): [boolean | null, (v: boolean) => void] {
  const [tagMode, setTagMode] = useState<boolean | null>(null);
  useEffect(() => setTagMode(readItem(STORAGE_KEYS.channelTagMode) === "true"), []);
  return [
    tagMode,
    (v: boolean) => {
      writeItem(STORAGE_KEYS.channelTagMode, String(v));
      setTagMode(v);
    },
  ];
}

const rowId = (r: ChannelRow) => (r.is_tag ? `tag:${r.tag}` : String(r.id));

export function ChannelsPage() {
  const t = useTranslations("channels");
  const te = useTranslations("errors");
  const display = useQuotaDisplay();
  const [tagMode, setTagMode] = useTagMode();
  const [draft, setDraft] = useState<ChannelFilters>(EMPTY_FILTERS);
  const [filters, setFilters] = useState<ChannelFilters>(EMPTY_FILTERS);
  const [idSort, setIdSort] = useState(false);
  const paging = useServerPaging([filters, idSort, tagMode]);
  const [selected, setSelected] = useState<string[]>([]);
  const [testing, setTesting] = useState<Channel | null>(null);
  const [editingModels, setEditingModels] = useState<Channel | null>(null);
  const [editingTag, setEditingTag] = useState<TagRow | null>(null);
  const [batchTag, setBatchTag] = useState(false);
  const [confirm, setConfirm] = useState<Confirmation | null>(null);
  const [revealing, setRevealing] = useState<Channel | null>(null);
  const viewer = useSessionUser();
  const rights: ChannelRights = { operate: can(viewer, "channels:operate"), write: can(viewer, "channels:write"), reveal: can(viewer, "channels:reveal") };

  const { data: groups } = useSWR<string[]>("/api/group/");
  const { data: tags, mutate: mutateTags } = useSWR<string[]>("/api/channel/tags?offset=0&limit=200");
  const path = paging.pageSize === null || tagMode === null ? null : channelListPath(filters, paging.page, paging.pageSize, idSort, tagMode);
  const { data, error, isLoading, mutate } = useSWR<ChannelList>(path);
  // the last 24 hours of every channel (docs/performance.md): the success rate and TTFT columns
  const [perfEnd, setPerfEnd] = useState<number | null>(null);
  useEffect(() => setPerfEnd(nowSeconds()), []);
  const { data: perfRows } = useSWR<PerfRow[]>(
    perfEnd === null ? null : `/api/perf/channels?start_timestamp=${perfEnd - 86_399}&end_timestamp=${perfEnd}&granularity=total`,
  );
  const perf = useMemo(() => new Map((perfRows ?? []).map((r) => [r.channel_id ?? 0, r])), [perfRows]);
  useEffect(() => setSelected([]), [data]);

  const refresh = () => {
    void mutate();
    void mutateTags();
  };
  const actions = useChannelActions({ refresh, revalidate: () => void mutate(), errorText: te });
  const testAll = useTestAll(te, refresh);
  const dialogs: ChannelDialogs = {
    testModels: setTesting,
    editModels: setEditingModels,
    editTag: setEditingTag,
    confirm: setConfirm,
    revealKey: setRevealing,
  };
  const columns = channelColumns({ t, display, actions, dialogs, rights, perf });
  const selectedIds = useMemo(() => selected.map(Number), [selected]);

  return (
    <div className="mx-auto w-full max-w-[90rem] px-4 py-6">
      <PageTitle
        actions={
          <ChannelBatchActions
            selected={selectedIds}
            actions={actions}
            onTestAll={() => void testAll.start()}
            onBatchTag={() => setBatchTag(true)}
            confirm={setConfirm}
            rights={rights}
          />
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
      <div className="mb-3">
        <ChannelFilterForm
          draft={draft}
          onDraft={setDraft}
          onSearch={() => setFilters(draft)}
          onReset={() => {
            setDraft(EMPTY_FILTERS);
            setFilters(EMPTY_FILTERS);
          }}
          groups={groups ?? []}
          tags={tags ?? []}
          typeCounts={data?.type_counts}
        />
      </div>
      <DataTable<ChannelRow>
        id="channels"
        columns={columns}
        rows={data?.items}
        getRowId={rowId}
        getSubRows={(r) => (r.is_tag ? r.children : undefined)}
        loading={isLoading}
        error={error}
        onRetry={() => void mutate()}
        emptyText={t("empty")}
        errorText={t("loadFailed")}
        rowProps={(r) =>
          r.is_tag ? { "data-testid": `tag-row-${r.tag}`, className: "bg-blue-50/40 dark:bg-blue-950/20" } : { "data-testid": `channel-row-${r.id}` }
        }
        selection={{ selected, onChange: setSelected, rowLabel: (r) => t("select", { name: r.is_tag ? r.tag : r.name }), allLabel: t("selectAll") }}
        toolbar={
          <div className="flex flex-wrap items-center gap-x-5 gap-y-2">
            <Switch checked={idSort} onChange={setIdSort} label={t("idSort")} />
            <Switch checked={tagMode ?? false} onChange={setTagMode} label={t("tagMode")} />
            {selected.length > 0 && <span className="text-sm text-zinc-600 dark:text-zinc-400">{t("selectedCount", { count: selected.length })}</span>}
          </div>
        }
        paging={
          paging.pageSize === null
            ? undefined
            : { page: paging.page, pageSize: paging.pageSize, total: data?.total ?? 0, onPage: paging.setPage, onPageSize: paging.setPageSize }
        }
      />

      <ModelTestDialog channel={testing} onClose={() => setTesting(null)} onModelsChanged={refresh} />
      <EditModelsDialog channel={editingModels} onClose={() => setEditingModels(null)} onSaved={refresh} />
      <TagEditDialog row={editingTag} groups={groups ?? []} onClose={() => setEditingTag(null)} onSaved={refresh} />
      <RevealKeyDialog channel={revealing} onClose={() => setRevealing(null)} />
      {rights.reveal && <FreshFactorHost />}
      <BatchTagDialog open={batchTag} ids={selectedIds} onClose={() => setBatchTag(false)} onSaved={refresh} />
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
