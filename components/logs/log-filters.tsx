"use client";
// The usage logs' filters: time range (date-time pickers), token, model, group, request id
// (docs/operations.md, "Request ids"), and for admins channel and username; the log type.
import { RotateCcw, Search } from "lucide-react";
import { useTranslations } from "next-intl";
import type { FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { DateTimeField, UnixTimePicker } from "@/components/ui/date-time-picker";
import { Field, SelectField } from "@/components/ui/input";
import { defaultLogRange, LOG_TYPES } from "@/lib/client/logs";

// start / end: unix seconds, null for no bound.
export type LogFilters = {
  type: string;
  username: string;
  token_name: string;
  model_name: string;
  channel: string;
  group: string;
  request_id: string;
  start: number | null;
  end: number | null;
};

export function initialLogFilters(nowMs: number): LogFilters {
  const r = defaultLogRange(nowMs);
  return { type: "0", username: "", token_name: "", model_name: "", channel: "", group: "", request_id: "", start: r.start, end: r.end };
}

export function logQuery(f: LogFilters, admin: boolean): URLSearchParams {
  const q = new URLSearchParams({ type: f.type, token_name: f.token_name.trim(), model_name: f.model_name.trim(), group: f.group.trim() });
  if (f.request_id.trim()) q.set("request_id", f.request_id.trim());
  if (f.start !== null && f.start > 0) q.set("start_timestamp", String(f.start));
  if (f.end !== null && f.end > 0) q.set("end_timestamp", String(f.end));
  if (admin) {
    q.set("username", f.username.trim());
    q.set("channel", f.channel.trim());
  }
  return q;
}

export function LogFilterForm({
  draft,
  onDraft,
  onSearch,
  onReset,
  admin,
}: {
  draft: LogFilters;
  onDraft: (f: LogFilters) => void;
  onSearch: () => void;
  onReset: () => void;
  admin: boolean;
}) {
  const t = useTranslations("logs");
  const d = draft;
  function submit(e: FormEvent) {
    e.preventDefault();
    onSearch();
  }
  return (
    <form onSubmit={submit} role="search" className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      <DateTimeField label={t("filters.start")}>
        {(id) => <UnixTimePicker id={id} label={t("filters.start")} value={d.start} onChange={(start) => onDraft({ ...d, start })} />}
      </DateTimeField>
      <DateTimeField label={t("filters.end")}>
        {(id) => <UnixTimePicker id={id} label={t("filters.end")} value={d.end} onChange={(end) => onDraft({ ...d, end })} />}
      </DateTimeField>
      <Field label={t("filters.tokenName")} value={d.token_name} onChange={(e) => onDraft({ ...d, token_name: e.target.value })} />
      <Field label={t("filters.modelName")} value={d.model_name} onChange={(e) => onDraft({ ...d, model_name: e.target.value })} />
      <Field label={t("filters.group")} value={d.group} onChange={(e) => onDraft({ ...d, group: e.target.value })} />
      <Field label={t("filters.requestId")} value={d.request_id} onChange={(e) => onDraft({ ...d, request_id: e.target.value })} />
      {admin && <Field label={t("filters.channel")} inputMode="numeric" value={d.channel} onChange={(e) => onDraft({ ...d, channel: e.target.value })} />}
      {admin && <Field label={t("filters.username")} value={d.username} onChange={(e) => onDraft({ ...d, username: e.target.value })} />}
      <SelectField label={t("filters.type")} value={d.type} onChange={(e) => onDraft({ ...d, type: e.target.value })}>
        <option value="0">{t("types.0")}</option>
        {LOG_TYPES.map((ty) => (
          <option key={ty} value={ty}>
            {t(`types.${ty}`)}
          </option>
        ))}
      </SelectField>
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-4">
        <Button type="submit">
          <Search aria-hidden className="h-4 w-4" />
          {t("search")}
        </Button>
        <Button variant="ghost" onClick={onReset}>
          <RotateCcw aria-hidden className="h-4 w-4" />
          {t("reset")}
        </Button>
      </div>
    </form>
  );
}
