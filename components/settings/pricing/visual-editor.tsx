"use client";
// The visual pricing editor (docs/pricing.md, "The visual editor"): one row per model, 10 to
// a page, with search; price, ratio, completion ratio and the prompt-cache ratios (reads,
// 5-minute and 1-hour writes) edited in their cells (请输入数字
// for anything but a number ≥ 0); add, edit (pricing mode), delete and batch set. It edits a
// copy of the price maps; Save writes the changed options as the settings kit does.
import type { ColumnDef } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { DataTable, useClientPaging } from "@/components/data-table";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import {
  PRICE_MAP_KEYS,
  modeOf,
  parseCell,
  parsePriceMap,
  putRow,
  ratioBadgeColor,
  removeRow,
  rowsFromMaps,
  type PriceMapKey,
  type PriceMaps,
  type PricingRow,
} from "@/lib/client/model-pricing";
import { putOption, toastSaveResult } from "@/components/forms/put-option";
import { saveOptions, unsavedValues, type OptionChange } from "@/lib/client/save-options";
import { toast } from "@/lib/client/toast";
import { dict } from "@/lib/own-keys";
import { BatchDialog, RowDialog } from "./price-dialogs";

export const EDITOR_PAGE_SIZE = 10;

type CellField = "price" | "ratio" | "completionRatio" | "cacheRatio" | "createCacheRatio" | "createCache1hRatio";
const CELL_MAP: Record<CellField, PriceMapKey> = {
  price: "ModelPrice",
  ratio: "ModelRatio",
  completionRatio: "CompletionRatio",
  cacheRatio: "CacheRatio",
  createCacheRatio: "CreateCacheRatio",
  createCache1hRatio: "CreateCache1hRatio",
};
// the prompt-cache columns (reads, 5-minute and 1-hour writes: docs/pricing.md, "Prompt-cache writes"), hideable
const CACHE_FIELDS = ["cacheRatio", "createCacheRatio", "createCache1hRatio"] as const;

export function VisualEditor({ base, reload }: { base: PriceMaps; reload: () => Promise<void> }) {
  const t = useTranslations("pricingEditor");
  const [maps, setMaps] = useState<PriceMaps>(base);
  const [cells, setCells] = useState<Record<string, string>>({});
  const [search, setSearch] = useState("");
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<{ kind: "add" } | { kind: "edit"; row: PricingRow } | { kind: "batch" } | null>(null);
  const [saving, setSaving] = useState(false);
  // the maps a save could not store: kept as edited across the reload that follows it
  const [kept, setKept] = useState<Partial<PriceMaps> | null>(null);
  // the options were reloaded (a save here or elsewhere): start again from them
  const [seen, setSeen] = useState(base);
  if (seen !== base) {
    setSeen(base);
    setMaps(kept ? (Object.assign({}, base, kept) as PriceMaps) : base);
    setKept(null);
    setCells({});
    setSelected([]);
  }

  const rows = useMemo(() => rowsFromMaps(maps), [maps]);
  const allNames = useMemo(() => {
    const s = new Set<string>();
    for (const k of PRICE_MAP_KEYS) for (const n of Object.keys(maps[k])) s.add(n);
    return [...s];
  }, [maps]);
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return q ? rows.filter((r) => r.name.toLowerCase().includes(q)) : rows;
  }, [rows, search]);
  const { pageRows, paging, reset: firstPage } = useClientPaging(shown, { pageSize: EDITOR_PAGE_SIZE, fixedSize: true });
  const cellErrors = Object.entries(cells).filter(([, text]) => !parseCell(text).ok);
  const dirty = PRICE_MAP_KEYS.some((k) => JSON.stringify(maps[k]) !== JSON.stringify(base[k])) || cellErrors.length > 0;

  const editCell = (row: PricingRow, field: CellField, text: string) => {
    const id = `${row.name}\u0000${field}`;
    setCells((c) => Object.assign({}, c, { [id]: text }));
    const parsed = parseCell(text);
    if (!parsed.ok) return;
    setMaps((m) => {
      const key = CELL_MAP[field];
      const next = Object.assign({}, m, { [key]: dict(m[key]) }) as PriceMaps;
      if (parsed.value === undefined) delete next[key][row.name];
      else next[key][row.name] = parsed.value;
      return next;
    });
  };

  const save = async () => {
    if (cellErrors.length > 0) {
      toast.error({ key: "settingsKit.checkInput" });
      return;
    }
    const changes: OptionChange[] = [];
    for (const k of PRICE_MAP_KEYS) {
      if (JSON.stringify(maps[k]) !== JSON.stringify(parsePriceMap(JSON.stringify(base[k])))) changes.push({ key: k, value: JSON.stringify(maps[k]) });
    }
    if (changes.length === 0) {
      toast.warning({ key: "settingsKit.unchanged" });
      return;
    }
    setSaving(true);
    try {
      const result = await saveOptions(changes, putOption);
      toastSaveResult(result);
      // a partial failure keeps what was not saved, and names it (docs/pricing.md)
      const unsaved = Object.keys(unsavedValues(result, Object.fromEntries(changes.map((c) => [c.key, c.value])))) as Array<keyof PriceMaps>;
      if (unsaved.length > 0) {
        setKept(Object.fromEntries(unsaved.map((k) => [k, maps[k]])));
        toast.error({ key: "pricingEditor.unsavedKept", values: { maps: unsaved.map((k) => t(`jsonLabels.${k}`)).join(t("listSeparator")) } });
      }
      await reload().catch(() => {
        setKept(null);
        toast.error({ key: "settingsKit.refreshFailed" });
      });
    } finally {
      setSaving(false);
    }
  };

  const cell = (row: PricingRow, field: CellField) => {
    const id = `${row.name}\u0000${field}`;
    const value = row[field];
    const text = cells[id] ?? (value === undefined ? "" : String(value));
    const bad = !parseCell(text).ok;
    return (
      <div className="flex flex-col gap-0.5">
        <Input
          aria-label={`${row.name} ${t(`columns.${field}`)}`}
          inputMode="decimal"
          value={text}
          onChange={(e) => editCell(row, field, e.target.value)}
          className={cn("h-8 w-24", bad && "border-red-500")}
          aria-invalid={bad || undefined}
        />
        {bad && (
          <span role="alert" className="text-xs text-red-600 dark:text-red-400">
            {t("errors.notNumber")}
          </span>
        )}
      </div>
    );
  };

  const columns: ColumnDef<PricingRow>[] = [
    {
      id: "name",
      header: t("columns.name"),
      meta: { label: t("columns.name"), hideable: false },
      cell: ({ row: { original: row } }) => (
        <div className="flex flex-col gap-1">
          <span className="font-mono text-xs break-all">{row.name}</span>
          <span>
            <Badge color={modeOf(row) === "perRequest" ? "purple" : "gray"}>{t(`modes.${modeOf(row)}`)}</Badge>
          </span>
        </div>
      ),
    },
    { id: "price", header: t("columns.price"), meta: { label: t("columns.price"), hideable: false }, cell: ({ row }) => cell(row.original, "price") },
    {
      id: "ratio",
      header: t("columns.ratio"),
      meta: { label: t("columns.ratio"), hideable: false },
      cell: ({ row: { original: row } }) => (
        <div className="flex items-start gap-2">
          {cell(row, "ratio")}
          {row.ratio !== undefined && <Badge color={ratioBadgeColor(row.ratio)}>×{row.ratio}</Badge>}
        </div>
      ),
    },
    {
      id: "completionRatio",
      header: t("columns.completionRatio"),
      meta: { label: t("columns.completionRatio"), hideable: false },
      cell: ({ row }) => cell(row.original, "completionRatio"),
    },
    ...CACHE_FIELDS.map((f): ColumnDef<PricingRow> => ({
      id: f,
      header: t(`columns.${f}`),
      meta: { label: t(`columns.${f}`), hideable: true },
      cell: ({ row }) => cell(row.original, f),
    })),
    {
      id: "actions",
      header: t("actions"),
      meta: { label: t("actions"), hideable: false },
      cell: ({ row: { original: row } }) => (
        <div className="flex gap-1">
          <Button size="sm" variant="secondary" onClick={() => setDialog({ kind: "edit", row })}>
            {t("edit")}
          </Button>
          <Button
            size="sm"
            variant="danger"
            onClick={() => {
              setMaps((m) => removeRow(m, row.name));
              setSelected((s) => s.filter((x) => x !== row.name));
            }}
          >
            {t("delete")}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <Card>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <Input
          type="search"
          aria-label={t("search")}
          placeholder={t("search")}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            firstPage();
          }}
          className="w-full sm:w-64"
        />
        <Button variant="secondary" onClick={() => setDialog({ kind: "add" })}>
          {t("addModel")}
        </Button>
        <Button variant="secondary" onClick={() => setDialog({ kind: "batch" })}>
          {t("batchSet")}
          {selected.length > 0 ? ` (${selected.length})` : ""}
        </Button>
        <div className="ml-auto flex flex-wrap justify-end gap-2">
          <Button
            variant="secondary"
            disabled={!dirty || saving}
            onClick={() => {
              setMaps(base);
              setCells({});
            }}
          >
            {t("discard")}
          </Button>
          <Button disabled={saving} onClick={() => void save()}>
            {t("save")}
          </Button>
        </div>
      </div>
      <DataTable<PricingRow>
        id="pricing-visual-editor"
        columns={columns}
        rows={pageRows}
        getRowId={(r) => r.name}
        emptyText={t("empty")}
        rowProps={(r) => ({ "data-model": r.name })}
        selection={{ selected, onChange: setSelected, rowLabel: (r) => t("selectModel", { name: r.name }), allLabel: t("selectPage") }}
        paging={paging}
      />
      {dialog?.kind === "add" || dialog?.kind === "edit" ? (
        <RowDialog
          open
          row={dialog.kind === "edit" ? dialog.row : null}
          names={allNames}
          onClose={() => setDialog(null)}
          onSave={(row) => {
            setMaps((m) => putRow(m, row));
            setCells((c) => {
              const next = Object.assign({}, c);
              for (const f of ["price", "ratio", "completionRatio"]) delete next[`${row.name}\u0000${f}`];
              return next;
            });
            if (dialog.kind === "add") {
              setSearch(row.name);
              firstPage();
            }
            setDialog(null);
          }}
        />
      ) : null}
      {dialog?.kind === "batch" && (
        <BatchDialog
          open
          models={selected}
          maps={maps}
          onClose={() => setDialog(null)}
          onApply={(next) => {
            setMaps(next);
            setCells({});
            setDialog(null);
          }}
        />
      )}
    </Card>
  );
}
