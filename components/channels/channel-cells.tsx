"use client";
// Cells of the channels table that hold state or a tooltip: inline priority / weight, the status badge.
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Input } from "@/components/ui/input";
import { Tooltip } from "@/components/ui/tooltip";
import { formatTimestamp } from "@/lib/client/format";
import { CHANNEL_STATUS_COLOR, parseOtherInfo } from "@/lib/client/channels";
import { CHANNEL_STATUS } from "@/lib/statuses";

// An input that commits on blur or Enter when its text changed.
export function InlineNumber({ value, label, onCommit }: { value: number | null; label: string; onCommit: (text: string) => Promise<boolean> }) {
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
      className="h-8 w-16"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={() => void commit()}
      onKeyDown={(e) => {
        if (e.key === "Enter") (e.target as HTMLInputElement).blur();
      }}
    />
  );
}

export function StatusBadge({ status, otherInfo }: { status: number; otherInfo?: string }) {
  const t = useTranslations("channels.status");
  const badge = <Badge color={CHANNEL_STATUS_COLOR[status] ?? "gray"}>{t(String(status in CHANNEL_STATUS_COLOR ? status : 0))}</Badge>;
  if (status !== CHANNEL_STATUS.autoDisabled) return badge;
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

export function GroupBadges({ groups }: { groups: string[] }) {
  return (
    <div className="flex flex-wrap gap-1">
      {groups.map((g) => (
        <Badge key={g} color="blue">
          {g}
        </Badge>
      ))}
    </div>
  );
}
