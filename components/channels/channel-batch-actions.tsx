"use client";
// The title's buttons: add, test all, refresh all balances, and the batch menu (tag or delete the
// selected channels, delete the disabled ones, fix the abilities table).
import { FlaskConical, Layers, Plus, RefreshCw } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import { Button } from "@/components/ui/button";
import { Dropdown, DropdownItem } from "@/components/ui/dropdown";
import type { ChannelRights, Confirmation } from "./channel-row-actions";
import type { ChannelActions } from "./use-channel-actions";

export function ChannelBatchActions({
  selected,
  actions,
  onTestAll,
  onBatchTag,
  confirm,
  rights,
}: {
  selected: number[];
  actions: ChannelActions;
  onTestAll: () => void;
  onBatchTag: () => void;
  confirm: (c: Confirmation) => void;
  // adding and the batch menu are writes, testing and the balances operations (docs/permissions.md)
  rights: ChannelRights;
}) {
  const t = useTranslations("channels");
  const { busy, act } = actions;
  const counted = (key: string) => (r: { data: number }) => toast.success({ key, values: { count: r.data } });
  return (
    <div className="flex flex-wrap gap-2">
      {rights.write && (
        <Link
          prefetch={false}
          href="/channel/add"
          className="inline-flex h-9 items-center gap-1.5 rounded-md bg-blue-600 px-4 text-sm font-medium text-white hover:bg-blue-700"
        >
          <Plus aria-hidden className="h-4 w-4" />
          {t("add")}
        </Link>
      )}
      {rights.operate && (
        <>
          <Button variant="secondary" disabled={busy} onClick={onTestAll}>
            <FlaskConical aria-hidden className="h-4 w-4" />
            {t("testAll")}
          </Button>
          <Button variant="secondary" disabled={busy} onClick={actions.refreshAllBalances}>
            <RefreshCw aria-hidden className="h-4 w-4" />
            {t("refreshAllBalances")}
          </Button>
        </>
      )}
      {rights.write && (
        <Dropdown
          label={t("moreActions")}
          trigger={
            <Button variant="secondary">
              <Layers aria-hidden className="h-4 w-4" />
              {t("moreActions")}
            </Button>
          }
        >
          <DropdownItem onSelect={() => (selected.length ? onBatchTag() : toast.error({ key: "channels.selectFirst" }))}>{t("batchTag")}</DropdownItem>
          <DropdownItem
            onSelect={() => {
              if (!selected.length) {
                toast.error({ key: "channels.selectFirst" });
                return;
              }
              confirm({
                title: t("batchDeleteTitle"),
                description: t("batchDeleteConfirm", { count: selected.length }),
                confirm: t("actions.delete"),
                run: () => act(() => api.post<number>("/api/channel/batch", { ids: selected }), counted("channels.deletedCount")),
              });
            }}
          >
            {t("batchDelete")}
          </DropdownItem>
          <DropdownItem
            onSelect={() =>
              confirm({
                title: t("deleteDisabledTitle"),
                description: t("deleteDisabledConfirm"),
                confirm: t("actions.delete"),
                run: () => act(() => api.del<number>("/api/channel/disabled"), counted("channels.deletedCount")),
              })
            }
          >
            {t("deleteDisabled")}
          </DropdownItem>
          <DropdownItem
            onSelect={() =>
              confirm({
                title: t("fixTitle"),
                description: t("fixConfirm"),
                confirm: t("fix"),
                run: () => act(() => api.post<number>("/api/channel/fix"), counted("channels.fixed")),
              })
            }
          >
            {t("fix")}
          </DropdownItem>
        </Dropdown>
      )}
    </div>
  );
}
