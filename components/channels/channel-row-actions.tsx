"use client";
// The operate cell of a channel row and of a tag row (tag mode).
import { Copy, Ellipsis, FlaskConical, KeyRound, ListChecks, Pencil, Power, PowerOff, RefreshCw, Trash } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Dropdown, DropdownItem, DropdownSeparator } from "@/components/ui/dropdown";
import type { ChannelActions } from "./use-channel-actions";
import type { Channel, TagRow } from "./types";
import { CHANNEL_STATUS } from "@/lib/statuses";

export type Confirmation = { title: string; description: string; confirm: string; run: () => void };

// Dialogs the page owns, opened from a row.
export type ChannelDialogs = {
  testModels: (c: Channel) => void;
  editModels: (c: Channel) => void;
  editTag: (r: TagRow) => void;
  confirm: (c: Confirmation) => void;
  revealKey: (c: Channel) => void;
};

// What the signed-in admin may do (docs/permissions.md): test, enable and disable
// (channels:operate), edit, copy and delete (channels:write), show the key (channels:reveal).
// The server refuses the rest; the page offers only these.
export type ChannelRights = { operate: boolean; write: boolean; reveal: boolean };

export function ChannelRowActions({
  channel: c,
  actions,
  dialogs,
  rights,
}: {
  channel: Channel;
  actions: ChannelActions;
  dialogs: ChannelDialogs;
  rights: ChannelRights;
}) {
  const t = useTranslations("channels");
  const busy = actions.busy;
  const more = rights.operate || rights.write || rights.reveal;
  return (
    <div className="flex items-center gap-1">
      {rights.operate && (
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => void actions.testOne(c)} aria-label={t("testChannel", { name: c.name })}>
          <FlaskConical aria-hidden className="h-3.5 w-3.5" />
          {t("actions.test")}
        </Button>
      )}
      {!rights.operate ? null : c.status === CHANNEL_STATUS.enabled ? (
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => actions.setStatus(c, 2)} aria-label={t("disableChannel", { name: c.name })}>
          <PowerOff aria-hidden className="h-3.5 w-3.5" />
          {t("actions.disable")}
        </Button>
      ) : (
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => actions.setStatus(c, 1)} aria-label={t("enableChannel", { name: c.name })}>
          <Power aria-hidden className="h-3.5 w-3.5" />
          {t("actions.enable")}
        </Button>
      )}
      {rights.write && (
        <Link
          prefetch={false}
          href={`/channel/edit/${c.id}`}
          className="inline-flex h-8 items-center gap-1.5 rounded-md px-3 text-sm font-medium text-blue-700 hover:bg-blue-50 dark:text-blue-400 dark:hover:bg-zinc-800"
        >
          <Pencil aria-hidden className="h-3.5 w-3.5" />
          {t("actions.edit")}
        </Link>
      )}
      {more && (
        <Dropdown
          label={t("moreFor", { name: c.name })}
          trigger={
            <Button size="sm" variant="ghost">
              <Ellipsis aria-hidden className="h-4 w-4" />
            </Button>
          }
        >
          {rights.operate && (
            <DropdownItem onSelect={() => dialogs.testModels(c)}>
              <ListChecks aria-hidden className="h-4 w-4" />
              {t("actions.testModels")}
            </DropdownItem>
          )}
          {rights.write && (
            <DropdownItem onSelect={() => dialogs.editModels(c)}>
              <Pencil aria-hidden className="h-4 w-4" />
              {t("actions.editModels")}
            </DropdownItem>
          )}
          {rights.operate && (
            <DropdownItem onSelect={() => actions.refreshBalance(c)}>
              <RefreshCw aria-hidden className="h-4 w-4" />
              {t("refreshBalance")}
            </DropdownItem>
          )}
          {rights.reveal && (
            <DropdownItem onSelect={() => dialogs.revealKey(c)}>
              <KeyRound aria-hidden className="h-4 w-4" />
              {t("actions.revealKey")}
            </DropdownItem>
          )}
          {rights.write && (
            <DropdownItem
              onSelect={() =>
                dialogs.confirm({
                  title: t("copyTitle", { name: c.name }),
                  description: t("copyDescription", { name: c.name }),
                  confirm: t("actions.copy"),
                  run: () => actions.copy(c),
                })
              }
            >
              <Copy aria-hidden className="h-4 w-4" />
              {t("actions.copy")}
            </DropdownItem>
          )}
          {rights.write && <DropdownSeparator />}
          {rights.write && (
            <DropdownItem
              onSelect={() =>
                dialogs.confirm({
                  title: t("deleteTitle"),
                  description: t("deleteConfirm", { name: c.name }),
                  confirm: t("actions.delete"),
                  run: () => actions.remove(c),
                })
              }
            >
              <Trash aria-hidden className="h-4 w-4 text-red-600 dark:text-red-400" />
              <span className="text-red-600 dark:text-red-400">{t("actions.delete")}</span>
            </DropdownItem>
          )}
        </Dropdown>
      )}
    </div>
  );
}

export function TagRowActions({ row: r, actions, dialogs, rights }: { row: TagRow; actions: ChannelActions; dialogs: ChannelDialogs; rights: ChannelRights }) {
  const t = useTranslations("channels");
  return (
    <div className="flex items-center gap-1">
      {rights.operate && (
        <>
          <Button
            size="sm"
            variant="secondary"
            disabled={actions.busy}
            onClick={() => actions.setTagStatus(r.tag, 1)}
            aria-label={t("enableTag", { tag: r.tag })}
          >
            <Power aria-hidden className="h-3.5 w-3.5" />
            {t("actions.enableAll")}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={actions.busy}
            onClick={() => actions.setTagStatus(r.tag, 2)}
            aria-label={t("disableTag", { tag: r.tag })}
          >
            <PowerOff aria-hidden className="h-3.5 w-3.5" />
            {t("actions.disableAll")}
          </Button>
        </>
      )}
      {rights.write && (
        <Button size="sm" variant="ghost" onClick={() => dialogs.editTag(r)} aria-label={t("editTag", { tag: r.tag })}>
          <Pencil aria-hidden className="h-3.5 w-3.5" />
          {t("actions.edit")}
        </Button>
      )}
    </div>
  );
}
