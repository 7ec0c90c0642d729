"use client";
// The model mapping table of the Models tab (docs/options.md, model_mapping): virtual model
// names, each served by its actual models, highest priority first. Add, edit (the virtual
// name may be renamed), delete and reload; the dialog checks the whole mapping with the
// server's own rules (lib/model-mapping/schema.ts through lib/client/model-mapping.ts) and
// shows the server's messages, before PUT /api/model_mapping/ checks them again. The model
// picker lists what GET /api/models answers (docs/relay.md, "Virtual models").
import * as P from "@radix-ui/react-popover";
import type { ColumnDef } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import useSWR from "swr";
import { DataTable } from "@/components/data-table";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { api, ApiError } from "@/lib/client/api";
import { checkDraft, deleteMapping, pickerModels, type MappingDraft, type ModelMapping } from "@/lib/client/model-mapping";
import { say } from "@/lib/i18n/render";
import { orderEntries } from "@/lib/model-mapping/schema";
import { toast } from "@/lib/client/toast";
import { useConfirm } from "@/components/forms";
import { useServerCatalogue } from "@/lib/i18n/client-catalogue";

const MAPPING_PATH = "/api/model_mapping/";

function ModelPicker({ models, chosen, onPick }: { models: string[]; chosen: string[]; onPick: (m: string) => void }) {
  const t = useTranslations("modelMapping");
  const [q, setQ] = useState("");
  const shown = models.filter((m) => m.toLowerCase().includes(q.trim().toLowerCase()));
  return (
    <P.Root>
      <P.Trigger asChild>
        <Button variant="secondary" size="sm">
          {t("pickModels")}
        </Button>
      </P.Trigger>
      <P.Portal>
        <P.Content
          align="start"
          sideOffset={4}
          className="z-[60] flex w-72 flex-col gap-2 rounded-md border border-zinc-200 bg-white p-2 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
        >
          <Input aria-label={t("searchModels")} placeholder={t("searchModels")} value={q} onChange={(e) => setQ(e.target.value)} className="h-8" />
          <ul role="listbox" aria-label={t("pickModels")} className="h-[400px] overflow-y-auto" data-picker-list>
            {shown.length === 0 && <li className="px-2 py-1 text-sm text-zinc-500">{t("noModels")}</li>}
            {shown.map((m) => (
              <li key={m}>
                <button
                  type="button"
                  role="option"
                  aria-selected={chosen.includes(m)}
                  disabled={chosen.includes(m)}
                  onClick={() => onPick(m)}
                  className="w-full rounded px-2 py-1 text-left font-mono text-xs text-zinc-800 hover:bg-zinc-100 disabled:opacity-40 dark:text-zinc-200 dark:hover:bg-zinc-800"
                >
                  {m}
                </button>
              </li>
            ))}
          </ul>
        </P.Content>
      </P.Portal>
    </P.Root>
  );
}

function MappingDialog({
  original,
  mapping,
  models,
  onClose,
  onSave,
}: {
  original: string | null;
  mapping: ModelMapping;
  models: string[];
  onClose: () => void;
  onSave: (next: ModelMapping) => Promise<boolean>;
}) {
  const t = useTranslations("modelMapping");
  const [draft, setDraft] = useState<MappingDraft>(() => ({
    name: original ?? "",
    rows: original ? mapping[original].map((r) => ({ model: r.model, priorities: String(r.priorities) })) : [{ model: "", priorities: "0" }],
  }));
  const catalogue = useServerCatalogue();
  const [error, setError] = useState<{ message: string; row?: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const setRow = (i: number, patch: Partial<{ model: string; priorities: string }>) => {
    setDraft((d) => ({ name: d.name, rows: d.rows.map((r, j) => (j === i ? Object.assign({}, r, patch) : r)) }));
    setError(null);
  };
  const submit = async () => {
    const r = checkDraft(draft, mapping, original);
    if (!r.ok) return setError({ message: say(catalogue, r.key, r.params), row: r.row });
    setBusy(true);
    try {
      if (await onSave(r.mapping)) onClose();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={original ? t("editTitle") : t("addTitle")}
      footer={<DialogActions cancel={t("cancel")} onCancel={onClose} action={t("save")} onAction={() => void submit()} busy={busy} />}
    >
      <div className="flex flex-col gap-4">
        <Field
          label={t("virtualName")}
          hint={original ? t("renameHint") : undefined}
          value={draft.name}
          onChange={(e) => {
            setDraft((d) => ({ name: e.target.value, rows: d.rows }));
            setError(null);
          }}
        />
        <div className="flex flex-col gap-2">
          <div className="flex items-center justify-between gap-2">
            <span className="text-sm font-medium text-zinc-700 dark:text-zinc-300">{t("actualModels")}</span>
            <div className="flex gap-2">
              <ModelPicker
                models={models}
                chosen={draft.rows.map((r) => r.model.trim())}
                onPick={(m) => {
                  setDraft((d) => ({ name: d.name, rows: [...d.rows.filter((r) => r.model.trim() !== ""), { model: m, priorities: "0" }] }));
                  setError(null);
                }}
              />
              <Button variant="secondary" size="sm" onClick={() => setDraft((d) => ({ name: d.name, rows: [...d.rows, { model: "", priorities: "0" }] }))}>
                {t("addRow")}
              </Button>
            </div>
          </div>
          {draft.rows.map((r, i) => (
            <div key={i} className="flex items-center gap-2" data-mapping-row={i}>
              <Input
                aria-label={t("actualModel", { n: i + 1 })}
                placeholder={t("actualModelPlaceholder")}
                value={r.model}
                onChange={(e) => setRow(i, { model: e.target.value })}
                className={error?.row === i ? "flex-1 border-red-500" : "flex-1"}
              />
              <Input
                aria-label={t("priority", { n: i + 1 })}
                inputMode="numeric"
                value={r.priorities}
                onChange={(e) => setRow(i, { priorities: e.target.value })}
                className="w-20"
              />
              <Button
                variant="ghost"
                size="sm"
                aria-label={t("removeRow", { n: i + 1 })}
                onClick={() => setDraft((d) => ({ name: d.name, rows: d.rows.filter((_, j) => j !== i) }))}
              >
                ✕
              </Button>
            </div>
          ))}
          <p className="text-xs text-zinc-500 dark:text-zinc-400">{t("priorityHint")}</p>
        </div>
        {error && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error.message}
          </p>
        )}
      </div>
    </Dialog>
  );
}

export function ModelMappingTable() {
  const t = useTranslations("modelMapping");
  const list = useSWR(MAPPING_PATH, (path: string) => api.get<{ mapping: ModelMapping }>(path, { quiet: true }).then((r) => r.data.mapping ?? {}), {
    revalidateOnFocus: false,
  });
  const models = useSWR("/api/models", (path: string) => api.get<Record<string, string[]>>(path, { quiet: true }).then((r) => pickerModels(r.data)), {
    revalidateOnFocus: false,
  });
  const [dialog, setDialog] = useState<{ original: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const [doomed, setDoomed] = useState<string | null>(null);
  const confirm = useConfirm({
    title: t("deleteTitle"),
    description: doomed ? t("deleteConfirm", { name: doomed }) : undefined,
    action: t("delete"),
    danger: true,
  });
  const mapping = useMemo(() => list.data ?? {}, [list.data]);

  // Save, delete and reload failures show the server's message (api reports it).
  const save = async (next: ModelMapping): Promise<boolean> => {
    try {
      const r = await api.put(MAPPING_PATH, { mapping: next });
      toast.success(r.message ? { text: r.message } : { key: "modelMapping.saved" });
      await list.mutate(next, { revalidate: true });
      return true;
    } catch (e) {
      if (!(e instanceof ApiError)) toast.error({ key: "modelMapping.saveFailed" });
      return false;
    }
  };
  const remove = async (name: string) => {
    setDoomed(name);
    if (!(await confirm.ask())) return;
    setBusy(true);
    try {
      await save(deleteMapping(mapping, name));
    } finally {
      setBusy(false);
    }
  };
  const reloadFromDb = async () => {
    setBusy(true);
    try {
      const r = await api.post(`${MAPPING_PATH}reload`);
      toast.success(r.message ? { text: r.message } : { key: "modelMapping.reloaded" });
      await list.mutate();
    } catch {
      // reported by api
    } finally {
      setBusy(false);
    }
  };

  const names = Object.keys(mapping);
  const columns: ColumnDef<string>[] = [
    {
      id: "name",
      header: t("virtualName"),
      meta: { label: t("virtualName"), hideable: false, className: "font-mono text-xs" },
      cell: ({ row }) => row.original,
    },
    {
      id: "models",
      header: t("actualModels"),
      meta: { label: t("actualModels"), hideable: false },
      cell: ({ row }) => (
        <div className="flex flex-wrap gap-1">
          {orderEntries(mapping[row.original] ?? []).map((r) => (
            <Badge key={r.model} color="blue">
              {r.model} · {r.priorities}
            </Badge>
          ))}
        </div>
      ),
    },
    {
      id: "actions",
      header: t("actions"),
      meta: { label: t("actions"), hideable: false },
      cell: ({ row }) => (
        <div className="flex gap-1">
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => setDialog({ original: row.original })}>
            {t("edit")}
          </Button>
          <Button size="sm" variant="danger" disabled={busy} onClick={() => void remove(row.original)}>
            {t("delete")}
          </Button>
        </div>
      ),
    },
  ];
  return (
    <Card
      title={t("title")}
      actions={
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" disabled={busy} onClick={() => void reloadFromDb()}>
            {t("reload")}
          </Button>
          <Button disabled={busy || !list.data} onClick={() => setDialog({ original: null })}>
            {t("add")}
          </Button>
        </div>
      }
    >
      <p className="-mt-2 mb-3 text-sm text-zinc-500 dark:text-zinc-400">{t("hint")}</p>
      <DataTable<string>
        id="model-mapping"
        columns={columns}
        rows={list.data ? names : undefined}
        getRowId={(name) => name}
        loading={list.isLoading}
        loadingText={t("loading")}
        error={list.error}
        onRetry={() => void list.mutate()}
        emptyText={t("empty")}
        errorText={t("loadFailed")}
        rowProps={(name) => ({ "data-virtual-model": name })}
      />
      {dialog && <MappingDialog original={dialog.original} mapping={mapping} models={models.data ?? []} onClose={() => setDialog(null)} onSave={save} />}
      {confirm.dialog}
    </Card>
  );
}
