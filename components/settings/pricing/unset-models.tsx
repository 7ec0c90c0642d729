"use client";
// The unset-model list (docs/pricing.md, "The unset-model list"): models channels serve with
// neither a price nor a ratio, 10, 20, 50 or 100 to a page (10 first), and the fill action
// that prices the selected ones (or all) from the presets.
import { useTranslations } from "next-intl";
import { useState } from "react";
import useSWR from "swr";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { EmptyRow, SelectAllHeader, Table, Td, Th } from "@/components/ui/table";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import { presetCall } from "./preset-calls";

export const UNSET_PAGE_SIZES = [10, 20, 50, 100] as const;

export function UnsetModels({ version, reload }: { version: string; reload: () => Promise<void> }) {
  const t = useTranslations("pricingEditor");
  // keyed on the price options' text: a save or a fill reloads the options, and the list with them
  const list = useSWR(["/api/option/unset_models", version], ([path]) => api.get<string[]>(path, { quiet: true }).then((r) => r.data), {
    revalidateOnFocus: false,
  });
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(10);
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const models = list.data ?? [];
  const pages = Math.max(1, Math.ceil(models.length / size));
  const current = Math.min(page, pages - 1);
  const pageRows = models.slice(current * size, (current + 1) * size);

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
      <Table>
        <thead>
          <tr>
            <SelectAllHeader label={t("selectPage")} rowIds={pageRows} selected={selected} onSelect={(ids) => setSelected(ids)} />
            <Th>{t("columns.name")}</Th>
          </tr>
        </thead>
        <tbody>
          {list.error ? (
            <EmptyRow colSpan={2}>{t("loadFailed")}</EmptyRow>
          ) : !list.data ? (
            <EmptyRow colSpan={2}>{t("loading")}</EmptyRow>
          ) : pageRows.length === 0 ? (
            <EmptyRow colSpan={2}>{t("unsetEmpty")}</EmptyRow>
          ) : (
            pageRows.map((m) => (
              <tr key={m}>
                <Td className="w-8">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-blue-600"
                    aria-label={t("selectModel", { name: m })}
                    checked={selected.includes(m)}
                    onChange={() => setSelected((s) => (s.includes(m) ? s.filter((x) => x !== m) : [...s, m]))}
                  />
                </Td>
                <Td className="font-mono text-xs">{m}</Td>
              </tr>
            ))
          )}
        </tbody>
      </Table>
      <div className="mt-3 flex flex-wrap items-center justify-end gap-3 text-sm text-zinc-600 dark:text-zinc-400">
        <span>{t("total", { total: models.length })}</span>
        <Button variant="secondary" size="sm" disabled={current <= 0} onClick={() => setPage(current - 1)}>
          {t("previous")}
        </Button>
        <span>{t("page", { page: current + 1, pages })}</span>
        <Button variant="secondary" size="sm" disabled={current + 1 >= pages} onClick={() => setPage(current + 1)}>
          {t("next")}
        </Button>
        <Select
          aria-label={t("pageSize")}
          value={size}
          onChange={(e) => {
            setSize(Number(e.target.value));
            setPage(0);
          }}
          className="h-8 w-auto"
        >
          {UNSET_PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {t("perPage", { n })}
            </option>
          ))}
        </Select>
      </div>
    </Card>
  );
}
