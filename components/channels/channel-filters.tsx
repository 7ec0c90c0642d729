"use client";
// The channels page's search form: keyword, model, group, types (with their counts), statuses, tags.
import { RotateCcw, Search } from "lucide-react";
import { useTranslations } from "next-intl";
import type { FormEvent } from "react";
import useSWR from "swr";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { MultiSelect } from "@/components/ui/multi-select";
import type { ChannelTypeInfo } from "@/lib/channel-admin/type-profiles";
import { channelTypeName } from "@/lib/channels/channel-types";

export type ChannelFilters = { keyword: string; group: string; model: string; types: string[]; statuses: string[]; tags: string[] };
export const EMPTY_FILTERS: ChannelFilters = { keyword: "", group: "", model: "", types: [], statuses: [], tags: [] };

// The list path of a page: the plain list, or the search when any filter is set.
export function channelListPath(f: ChannelFilters, page: number, pageSize: number, idSort: boolean, tagMode: boolean): string {
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

export function ChannelFilterForm({
  draft,
  onDraft,
  onSearch,
  onReset,
  groups,
  tags,
  typeCounts,
}: {
  draft: ChannelFilters;
  onDraft: (f: ChannelFilters) => void;
  onSearch: () => void;
  onReset: () => void;
  groups: string[];
  tags: string[];
  typeCounts?: Record<string, number>;
}) {
  const t = useTranslations("channels");
  const statusOptions = [1, 2, 3].map((s) => ({ value: String(s), label: t(`status.${s}`) }));
  // The types something serves (as the editor offers them), and any other type a stored channel has.
  const { data: served } = useSWR<ChannelTypeInfo[]>("/api/channel/types");
  const typeIds = [...new Set([...(served ?? []).map((ty) => ty.id), ...Object.keys(typeCounts ?? {}).map(Number)])].sort((a, b) => a - b);
  const typeOptions = typeIds.map((id) => ({
    value: String(id),
    label: (
      <span>
        {channelTypeName(id)}
        {typeCounts?.[id] ? <span className="ml-1 text-xs text-zinc-500">({typeCounts[id]})</span> : null}
      </span>
    ),
  }));
  function submit(e: FormEvent) {
    e.preventDefault();
    onSearch();
  }
  return (
    <form onSubmit={submit} role="search" className="flex flex-wrap items-center gap-2">
      <Input
        aria-label={t("keyword")}
        placeholder={t("keywordPlaceholder")}
        value={draft.keyword}
        onChange={(e) => onDraft({ ...draft, keyword: e.target.value })}
        className="w-full sm:w-56"
      />
      <Input
        aria-label={t("modelFilter")}
        placeholder={t("modelFilter")}
        value={draft.model}
        onChange={(e) => onDraft({ ...draft, model: e.target.value })}
        className="w-full sm:w-44"
      />
      <Select aria-label={t("groupFilter")} value={draft.group} onChange={(e) => onDraft({ ...draft, group: e.target.value })} className="max-w-48">
        <option value="">{t("allGroups")}</option>
        {groups.map((g) => (
          <option key={g} value={g}>
            {g}
          </option>
        ))}
      </Select>
      <MultiSelect label={t("typesFilter")} options={typeOptions} value={draft.types} onChange={(types) => onDraft({ ...draft, types })} />
      <MultiSelect label={t("statusesFilter")} options={statusOptions} value={draft.statuses} onChange={(statuses) => onDraft({ ...draft, statuses })} />
      <MultiSelect
        label={t("tagsFilter")}
        options={tags.map((x) => ({ value: x, label: x }))}
        value={draft.tags}
        onChange={(ts) => onDraft({ ...draft, tags: ts })}
      />
      <Button type="submit">
        <Search aria-hidden className="h-4 w-4" />
        {t("search")}
      </Button>
      <Button variant="ghost" onClick={onReset}>
        <RotateCcw aria-hidden className="h-4 w-4" />
        {t("reset")}
      </Button>
    </form>
  );
}
