"use client";
// The unset-model list (docs/pricing.md, "The unset-model list"): models channels serve with
// neither a price nor a ratio, 10, 20, 50 or 100 to a page (10 first), and the fill action
// that prices the selected ones (or all) from the presets.
import type { ColumnDef } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import useSWR from "swr";
import { DataTable, useClientPaging } from "@/components/data-table";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import { presetCall } from "./preset-calls";

export function UnsetModels({ version, reload }: { version: string; reload: () => Promise<void> }) {
  const t = useTranslations("pricingEditor");
  // keyed on the price options' text: a save or a fill reloads the options, and the list with them
  const list = useSWR(["/api/option/unset_models", version], ([path]) => api.get<string[]>(path, { quiet: true }).then((r) => r.data), {
    revalidateOnFocus: false,
  });
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const models = useMemo(() => list.data ?? [], [list.data]);
  // the kit's page sizes (10, 20, 50, 100), 10 first
  const { pageRows, paging } = useClientPaging(list.data, { pageSize: 10 });
  const columns = useMemo<ColumnDef<string>[]>(
    () => [
      {
        id: "name",
        header: t("columns.name"),
        meta: { label: t("columns.name"), hideable: false, className: "font-mono text-xs" },
        cell: ({ row }) => row.original,
      },
    ],
    [t],
  );

  const fill = async () => {
    setBusy(true);
    try {
      const chosen = selected.filter((m) => models.includes(m));
      const r = await presetCall<{ filled: string[]; missing: string[] }>("fill", "/api/option/unset_models/fill", chosen.length ? { models: chosen } : {});
      if (r) {
        toast.success({ key: "pricingEditor.filled", values: { n: r.filled.length, missing: r.missing.length } });
        setSelected([]);
        await reload().catch(() => toast.error({ key: "settingsKit.refreshFailed" }));
        await list.mutate();
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("unsetHint")}</p>
        <Button className="ml-auto" disabled={busy || models.length === 0} onClick={() => void fill()}>
          {selected.length > 0 ? t("fillSelected", { n: selected.length }) : t("fillAll")}
        </Button>
      </div>
      <DataTable<string>
        id="pricing-unset-models"
        columns={columns}
        rows={pageRows}
        getRowId={(m) => m}
        loading={list.isLoading}
        error={list.error}
        onRetry={() => void list.mutate()}
        emptyText={t("unsetEmpty")}
        errorText={t("loadFailed")}
        selection={{ selected, onChange: setSelected, rowLabel: (m) => t("selectModel", { name: m }), allLabel: t("selectPage") }}
        paging={paging}
      />
    </Card>
  );
}
