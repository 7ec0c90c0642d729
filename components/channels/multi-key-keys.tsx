"use client";
// The keys of a multi-key channel in its editor (docs/channels-tokens-billing.md, "Multi-key
// channels"): one row per key with its index, status and, when disabled, why and when. No key
// is ever shown, not even in part: a key is known by its index (its line) only. Each row
// enables, disables or deletes its key at once (POST /api/channel/multi_key/manage); adding
// keys goes through the key field above (mode "append").
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, Td, Th } from "@/components/ui/table";
import { api } from "@/lib/client/api";
import { CHANNEL_STATUS_COLOR } from "@/lib/client/channels";
import { formatTimestamp } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";
import { enabledKeyCount, keyRows, type ChannelInfo } from "@/lib/channels/multi-key-rules";
import type { Channel } from "./types";
import { KEY_STATUS } from "@/lib/statuses";

type Action = "enable_key" | "disable_key" | "delete_key" | "enable_all_keys" | "delete_disabled_keys";

export function MultiKeyKeys({ channelId, info, onChange }: { channelId: number; info: ChannelInfo; onChange: (next: ChannelInfo) => void }) {
  const t = useTranslations("channels.multiKey");
  const ts = useTranslations("channels.status");
  const [busy, setBusy] = useState(false);
  const rows = keyRows(info);

  async function act(action: Action, keyIndex?: number) {
    if (
      (action === "delete_key" || action === "delete_disabled_keys") &&
      !window.confirm(t(action === "delete_key" ? "confirmDelete" : "confirmDeleteDisabled", { index: keyIndex ?? 0 }))
    )
      return;
    setBusy(true);
    try {
      const r = await api.post<Channel>("/api/channel/multi_key/manage", { channel_id: channelId, action, key_index: keyIndex });
      if (r.data.channel_info) onChange(r.data.channel_info);
      toast.success({ key: "channels.saved" });
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-2 sm:col-span-2" data-testid="multi-key-keys">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">{t("keysTitle")}</span>
        <span className="text-zinc-500">{t("enabledOf", { enabled: enabledKeyCount(info), size: info.multi_key_size })}</span>
        <span className="grow" />
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => void act("enable_all_keys")}>
          {t("enableAll")}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={busy || rows.every((r) => r.status === KEY_STATUS.enabled)}
          onClick={() => void act("delete_disabled_keys")}
        >
          {t("deleteDisabled")}
        </Button>
      </div>
      <Table>
        <thead>
          <tr>
            <Th>{t("index")}</Th>
            <Th>{t("status")}</Th>
            <Th>{t("reason")}</Th>
            <Th>{t("time")}</Th>
            <Th>{t("actions")}</Th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.index} className="border-t border-zinc-100 dark:border-zinc-800">
              <Td className="font-mono">#{r.index}</Td>
              <Td>
                <Badge color={CHANNEL_STATUS_COLOR[r.status] ?? "gray"}>{ts(String(r.status in CHANNEL_STATUS_COLOR ? r.status : 0))}</Badge>
              </Td>
              <Td className="max-w-xs text-xs break-words text-zinc-600 dark:text-zinc-400">
                {r.reason || (r.status === KEY_STATUS.disabled ? t("byAdmin") : "")}
              </Td>
              <Td className="text-xs whitespace-nowrap">{r.time ? formatTimestamp(r.time) : ""}</Td>
              <Td className="whitespace-nowrap">
                {r.status === KEY_STATUS.enabled ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={busy}
                    aria-label={t("disableKey", { index: r.index })}
                    onClick={() => void act("disable_key", r.index)}
                  >
                    {t("disable")}
                  </Button>
                ) : (
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={busy}
                    aria-label={t("enableKey", { index: r.index })}
                    onClick={() => void act("enable_key", r.index)}
                  >
                    {t("enable")}
                  </Button>
                )}
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={busy || rows.length <= 1}
                  aria-label={t("deleteKey", { index: r.index })}
                  onClick={() => void act("delete_key", r.index)}
                >
                  {t("delete")}
                </Button>
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
