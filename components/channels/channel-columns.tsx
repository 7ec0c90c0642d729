"use client";
// Columns of the channels table. A row is a channel, or in tag mode a tag row whose sub-rows are
// its channels (expanded from the name cell); each cell says what both kinds show.
import type { ColumnDef } from "@tanstack/react-table";
import { ChevronDown, ChevronRight } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Tooltip } from "@/components/ui/tooltip";
import { channelTypeName } from "@/lib/channels/channel-types";
import { splitList } from "@/lib/channels/split-list";
import { enabledKeyCount } from "@/lib/channels/multi-key-rules";
import { formatTimestamp, renderQuota, type QuotaDisplay } from "@/lib/client/format";
import { latestDisabledInfo, responseTimeColor } from "@/lib/client/channels";
import { formatMs, formatRate, rateColor, type PerfRow } from "@/lib/client/perf";
import { GroupBadges, InlineNumber, StatusBadge } from "./channel-cells";
import { ChannelRowActions, TagRowActions, type ChannelDialogs, type ChannelRights } from "./channel-row-actions";
import type { ChannelActions } from "./use-channel-actions";
import { CHANNEL_COLUMNS, type Channel, type ChannelColumn, type TagRow } from "./types";

export type ChannelRow = Channel | TagRow;
type T = (key: string, values?: Record<string, string | number>) => string;

const seconds = (ms: number, t: T) => (ms ? `${(ms / 1000).toFixed(2)}s` : t("notTested"));

export function channelColumns({
  t,
  display,
  actions,
  dialogs,
  rights,
  perf,
}: {
  t: T;
  display: QuotaDisplay;
  actions: ChannelActions;
  dialogs: ChannelDialogs;
  rights: ChannelRights;
  /** each channel's last 24 hours (GET /api/perf/channels, docs/performance.md) */
  perf: Map<number, PerfRow>;
}): ColumnDef<ChannelRow>[] {
  // a tag row: its channels' calls together (their TTFT sketches are not in the list)
  const rateOf = (r: ChannelRow): number | null => {
    if (!r.is_tag) return perf.get(r.id)?.success_rate ?? null;
    let calls = 0;
    let ok = 0;
    for (const c of r.children) {
      calls += perf.get(c.id)?.calls ?? 0;
      ok += perf.get(c.id)?.successes ?? 0;
    }
    return calls ? ok / calls : null;
  };
  const cells: Record<ChannelColumn, ColumnDef<ChannelRow>["cell"]> = {
    id: ({ row }) => (row.original.is_tag ? null : row.original.id),
    name: ({ row }) => {
      const r = row.original;
      if (r.is_tag) {
        const open = row.getIsExpanded();
        const Icon = open ? ChevronDown : ChevronRight;
        return (
          <button type="button" aria-expanded={open} className="flex items-center gap-1 font-medium whitespace-nowrap" onClick={row.getToggleExpandedHandler()}>
            <Icon aria-hidden className="h-4 w-4 text-zinc-500" />
            <Badge color="purple">{t("tagLabel")}</Badge> {r.tag}
            <span className="text-xs font-normal text-zinc-500">({r.children.length})</span>
          </button>
        );
      }
      const child = row.depth > 0;
      return (
        <div className={child ? "pl-6" : undefined}>
          <div className="font-medium">
            {r.name}
            {r.channel_info?.is_multi_key && (
              <Badge color="blue" className="ml-1">
                {t("multiKey.badge", { enabled: enabledKeyCount(r.channel_info), size: r.channel_info.multi_key_size })}
              </Badge>
            )}
          </div>
          {r.tag && !child && <div className="text-xs text-zinc-500">#{r.tag}</div>}
          {r.remark && <div className="text-xs text-zinc-400">{r.remark}</div>}
        </div>
      );
    },
    group: ({ row }) => <GroupBadges groups={splitList(row.original.group)} />,
    type: ({ row }) => (row.original.type === null ? t("mixed") : channelTypeName(row.original.type)),
    status: ({ row }) => (
      <StatusBadge status={row.original.status} otherInfo={row.original.is_tag ? latestDisabledInfo(row.original.children) : row.original.other_info} />
    ),
    responseTime: ({ row }) => {
      const r = row.original;
      const badge = <Badge color={responseTimeColor(r.response_time)}>{seconds(r.response_time, t)}</Badge>;
      if (r.is_tag) return badge;
      return (
        <Tooltip content={t("testedAt", { time: formatTimestamp(r.test_time) || t("never") })}>
          <span tabIndex={0}>{badge}</span>
        </Tooltip>
      );
    },
    // one cell for the last 24 hours (the success rate, the median time to first token under
    // it), so that the row's actions stay in view at 1360 px
    last24h: ({ row }) => {
      const r = row.original;
      const ttft = r.is_tag ? null : perf.get(r.id)?.ttft_p50_ms;
      return (
        <>
          <span data-testid={r.is_tag ? undefined : `channel-success-${r.id}`}>
            <Badge color={rateColor(rateOf(r))}>{formatRate(rateOf(r))}</Badge>
          </span>
          {ttft != null && <div className="mt-0.5 text-xs text-zinc-500 tabular-nums dark:text-zinc-400">{t("ttftOf", { ms: formatMs(ttft) })}</div>}
        </>
      );
    },
    balance: ({ row }) => {
      const r = row.original;
      const used = <div>{t("used", { quota: renderQuota(r.used_quota, display) })}</div>;
      if (r.is_tag) return used;
      return (
        <>
          {used}
          <button
            type="button"
            className="text-blue-600 hover:underline dark:text-blue-400"
            onClick={() => actions.refreshBalance(r)}
            title={t("refreshBalance")}
          >
            {t("remaining", { balance: `$${r.balance.toFixed(2)}` })}
          </button>
        </>
      );
    },
    priority: ({ row }) => {
      const r = row.original;
      const name = r.is_tag ? r.tag : r.name;
      if (!rights.write) return r.priority;
      return <InlineNumber value={r.priority} label={t("priorityOf", { name })} onCommit={(v) => actions.commitNumber(r, "priority", v)} />;
    },
    weight: ({ row }) => {
      const r = row.original;
      const name = r.is_tag ? r.tag : r.name;
      if (!rights.write) return r.weight;
      return <InlineNumber value={r.weight} label={t("weightOf", { name })} onCommit={(v) => actions.commitNumber(r, "weight", v)} />;
    },
    operate: ({ row }) => {
      const r = row.original;
      return r.is_tag ? (
        <TagRowActions row={r} actions={actions} dialogs={dialogs} rights={rights} />
      ) : (
        <ChannelRowActions channel={r} actions={actions} dialogs={dialogs} rights={rights} />
      );
    },
  };
  const classes: Partial<Record<ChannelColumn, string>> = {
    name: "whitespace-nowrap",
    type: "whitespace-nowrap",
    balance: "text-xs whitespace-nowrap",
    last24h: "whitespace-nowrap",
  };
  // the headers longer than their cells may wrap (in English "Response time", "Used / remaining"),
  // and the cells keep 8 px a side instead of 12: the list fits 1360 px in every language
  const wrap = "whitespace-normal";
  const headerClasses: Partial<Record<ChannelColumn, string>> = { responseTime: wrap, last24h: wrap, balance: wrap };
  return CHANNEL_COLUMNS.map((id) => ({
    id,
    header: t(`col.${id}`),
    meta: { label: t(`col.${id}`), className: `px-2 ${classes[id] ?? ""}`, headerClassName: `px-2 ${headerClasses[id] ?? ""}` },
    cell: cells[id],
  }));
}
