"use client";
// /channel/add and /channel/edit/{id} (docs/channels-tokens-billing.md). The key is never loaded
// back: on edit a blank key keeps the stored one. Server messages are shown as toasts.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Plus, RefreshCw } from "lucide-react";
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import useSWR from "swr";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, PageTitle } from "@/components/ui/card";
import { Field, Input, SelectField } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { TextareaField } from "@/components/ui/textarea";
import { api } from "@/lib/client/api";
import { CHANNEL_TYPES } from "@/lib/channels/channel-types";
import { splitList } from "@/lib/channels/split-list";
import { isJsonObjectText, keyFormat } from "@/lib/client/relay";
import { toast } from "@/lib/client/toast";
import { GroupCheckboxes } from "./group-checkboxes";
import type { Channel } from "./types";

type Form = {
  type: number;
  name: string;
  base_url: string;
  key: string;
  other: string;
  models: string[];
  model_mapping: string;
  groups: string[];
  tag: string;
  priority: string;
  weight: string;
  auto_ban: boolean;
  test_model: string;
  status_code_mapping: string;
  remark: string;
  batch: boolean;
};

const BLANK: Form = {
  type: 1,
  name: "",
  base_url: "",
  key: "",
  other: "",
  models: [],
  model_mapping: "",
  groups: ["default"],
  tag: "",
  priority: "0",
  weight: "0",
  auto_ban: true,
  test_model: "",
  status_code_mapping: "",
  remark: "",
  batch: false,
};

const BASE_URL_HINTS: Record<number, string> = {
  3: "https://{resource}.openai.azure.com",
  4: "http://localhost:11434",
  8: "https://example.com/v1/chat/completions",
};

function fromChannel(c: Channel): Form {
  return {
    type: c.type,
    name: c.name,
    base_url: c.base_url,
    key: "",
    other: c.other,
    models: splitList(c.models),
    model_mapping: c.model_mapping,
    groups: splitList(c.group),
    tag: c.tag ?? "",
    priority: String(c.priority),
    weight: String(c.weight),
    auto_ban: c.auto_ban === 1,
    test_model: c.test_model,
    status_code_mapping: c.status_code_mapping,
    remark: c.remark,
    batch: false,
  };
}

// The 400 px model picker, fed by GET /api/models (models configured per channel type).
function ModelPicker({ type, chosen, onChange }: { type: number; chosen: string[]; onChange: (m: string[]) => void }) {
  const t = useTranslations("channels.editor");
  const { data } = useSWR<Record<string, string[]>>("/api/models");
  const [q, setQ] = useState("");
  const all = useMemo(() => {
    const own = data?.[String(type)] ?? [];
    const rest = Object.values(data ?? {}).flat();
    return [...new Set([...own, ...rest, ...chosen])];
  }, [data, type, chosen]);
  const shown = all.filter((m) => m.toLowerCase().includes(q.trim().toLowerCase()));
  return (
    <div className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <Input aria-label={t("pickerSearch")} placeholder={t("pickerSearch")} value={q} onChange={(e) => setQ(e.target.value)} />
      <div className="h-[400px] overflow-y-auto" data-testid="model-picker">
        {shown.length === 0 && <p className="p-2 text-sm text-zinc-500">{t("pickerEmpty")}</p>}
        {shown.map((m) => (
          <label key={m} className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800">
            <input
              type="checkbox"
              className="h-4 w-4 accent-blue-600"
              checked={chosen.includes(m)}
              onChange={() => onChange(chosen.includes(m) ? chosen.filter((x) => x !== m) : [...chosen, m])}
            />
            <span className="font-mono text-xs">{m}</span>
          </label>
        ))}
      </div>
    </div>
  );
}

export function ChannelEditor({ id }: { id: number | null }) {
  const t = useTranslations("channels.editor");
  const tc = useTranslations("channels");
  const router = useRouter();
  const [form, setForm] = useState<Form>(BLANK);
  const [loaded, setLoaded] = useState(id === null);
  const [keySet, setKeySet] = useState(false);
  const [custom, setCustom] = useState("");
  const [busy, setBusy] = useState(false);
  const { data: groups } = useSWR<string[]>("/api/group/");

  useEffect(() => {
    if (id === null) return;
    api
      .get<Channel>(`/api/channel/${id}`)
      .then((r) => {
        setForm(fromChannel(r.data));
        setKeySet(r.data.key_set);
        setLoaded(true);
      })
      .catch(() => {
        // reported by the API helper
      });
  }, [id]);

  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));
  const mappingBad = !isJsonObjectText(form.model_mapping);
  const statusMappingBad = !isJsonObjectText(form.status_code_mapping);
  const format = keyFormat(form.type);

  function addCustom() {
    const extra = splitList(custom.replace(/\n/g, ","));
    if (!extra.length) return;
    set("models", [...new Set([...form.models, ...extra])]);
    setCustom("");
  }

  // Upstream model list: the form's key when typed, else (on edit) the stored channel's.
  async function fetchModels() {
    setBusy(true);
    try {
      const r =
        form.key.trim() || id === null
          ? await api.post<string[]>("/api/channel/fetch_models", { base_url: form.base_url, type: form.type, key: form.key })
          : await api.get<string[]>(`/api/channel/fetch_models/${id}`);
      set("models", [...new Set([...form.models, ...r.data])]);
      toast.success({ key: "channels.editor.fetched", values: { count: r.data.length } });
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (mappingBad) {
      toast.error({ key: "channels.mappingInvalid" });
      return;
    }
    if (statusMappingBad) {
      toast.error({ key: "channels.editor.statusMappingInvalid" });
      return;
    }
    const body = {
      type: form.type,
      name: form.name,
      base_url: form.base_url,
      other: form.other,
      models: form.models.join(","),
      model_mapping: form.model_mapping,
      groups: form.groups,
      tag: form.tag,
      priority: form.priority,
      weight: form.weight,
      auto_ban: form.auto_ban ? 1 : 0,
      test_model: form.test_model,
      status_code_mapping: form.status_code_mapping,
      remark: form.remark,
      ...(form.key.trim() ? { key: form.key } : {}),
    };
    setBusy(true);
    try {
      if (id === null) {
        await api.post("/api/channel/", { ...body, key: form.key, mode: form.batch ? "batch" : "single" });
        toast.success({ key: "channels.editor.created" });
      } else {
        await api.put("/api/channel/", { ...body, id });
        toast.success({ key: "channels.saved" });
      }
      router.push("/admin/channels");
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  const allGroups = [...new Set([...(groups ?? []), ...form.groups])];
  const otherLabel = form.type === 3 ? t("apiVersion") : t("other");

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6">
      <PageTitle
        actions={
          <Link href="/admin/channels" className="text-sm text-blue-700 hover:underline dark:text-blue-400">
            {t("back")}
          </Link>
        }
      >
        {id === null ? t("addTitle") : t("editTitle", { id })}
      </PageTitle>
      {!loaded ? (
        <p className="text-sm text-zinc-500">{tc("loading")}</p>
      ) : (
        <form onSubmit={submit} className="flex flex-col gap-5">
          <Card title={t("basics")}>
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField label={tc("fields.type")} value={form.type} onChange={(e) => set("type", Number(e.target.value))}>
                {CHANNEL_TYPES.map((ty) => (
                  <option key={ty.id} value={ty.id}>
                    {ty.id} · {ty.name}
                  </option>
                ))}
                {!CHANNEL_TYPES.some((ty) => ty.id === form.type) && <option value={form.type}>#{form.type}</option>}
              </SelectField>
              <Field label={tc("fields.name")} required value={form.name} onChange={(e) => set("name", e.target.value)} />
              <Field
                label={tc("fields.baseUrl")}
                className="sm:col-span-2"
                placeholder={BASE_URL_HINTS[form.type] ?? t("baseUrlPlaceholder")}
                value={form.base_url}
                onChange={(e) => set("base_url", e.target.value)}
                hint={t("baseUrlHint")}
              />
              <TextareaField
                label={tc("fields.key")}
                className="sm:col-span-2"
                rows={form.batch ? 5 : 2}
                autoComplete="off"
                placeholder={format ?? (form.batch ? t("keyBatchPlaceholder") : t("keyPlaceholder"))}
                value={form.key}
                onChange={(e) => set("key", e.target.value)}
                hint={[id !== null ? (keySet ? t("keyKept") : t("keyMissing")) : null, format ? t("keyFormat", { format }) : null].filter(Boolean).join(" ")}
              />
              {id === null && <Switch checked={form.batch} onChange={(v) => set("batch", v)} label={t("batch")} hint={t("batchHint")} />}
              <Field
                label={otherLabel}
                placeholder={form.type === 3 ? "2024-10-21" : ""}
                value={form.other}
                onChange={(e) => set("other", e.target.value)}
                hint={form.type === 3 ? t("apiVersionHint") : undefined}
              />
            </div>
          </Card>

          <Card title={tc("fields.models")}>
            <div className="flex flex-col gap-3">
              <div className="flex flex-wrap gap-1" aria-label={t("chosenModels")}>
                {form.models.length === 0 && <span className="text-sm text-zinc-500">{t("noModels")}</span>}
                {form.models.map((m) => (
                  <button
                    key={m}
                    type="button"
                    onClick={() =>
                      set(
                        "models",
                        form.models.filter((x) => x !== m),
                      )
                    }
                    title={t("removeModel")}
                  >
                    <Badge color="blue">{m} ×</Badge>
                  </button>
                ))}
              </div>
              <div className="flex flex-wrap gap-2">
                <Input
                  aria-label={t("customModel")}
                  placeholder={t("customModel")}
                  value={custom}
                  onChange={(e) => setCustom(e.target.value)}
                  className="max-w-sm"
                  onKeyDown={(e) => {
                    if (e.key === "Enter") {
                      e.preventDefault();
                      addCustom();
                    }
                  }}
                />
                <Button variant="secondary" onClick={addCustom}>
                  <Plus aria-hidden className="h-4 w-4" />
                  {t("addModel")}
                </Button>
                <Button variant="secondary" disabled={busy} onClick={() => void fetchModels()}>
                  <RefreshCw aria-hidden className="h-4 w-4" />
                  {t("fetchModels")}
                </Button>
                <Button variant="ghost" onClick={() => set("models", [])}>
                  {t("clearModels")}
                </Button>
              </div>
              <ModelPicker type={form.type} chosen={form.models} onChange={(m) => set("models", m)} />
              <TextareaField
                label={tc("fields.modelMapping")}
                rows={4}
                placeholder='{"gpt-4o": "gpt-4o-2024-08-06"}'
                value={form.model_mapping}
                hint={t("mappingHint")}
                error={mappingBad ? tc("mappingInvalid") : undefined}
                onChange={(e) => set("model_mapping", e.target.value)}
              />
              <Field label={tc("fields.testModel")} value={form.test_model} onChange={(e) => set("test_model", e.target.value)} hint={t("testModelHint")} />
            </div>
          </Card>

          <Card title={t("routing")}>
            <div className="grid gap-4 sm:grid-cols-2">
              <GroupCheckboxes
                className="sm:col-span-2"
                legend={tc("fields.groups")}
                groups={allGroups}
                chosen={form.groups}
                onChange={(next) => set("groups", next)}
              />
              <Field label={tc("fields.tag")} value={form.tag} onChange={(e) => set("tag", e.target.value)} />
              <Field label={tc("fields.remark")} value={form.remark} onChange={(e) => set("remark", e.target.value)} />
              <Field
                label={tc("col.priority")}
                inputMode="numeric"
                value={form.priority}
                onChange={(e) => set("priority", e.target.value)}
                hint={t("priorityHint")}
              />
              <Field label={tc("col.weight")} inputMode="numeric" value={form.weight} onChange={(e) => set("weight", e.target.value)} hint={t("weightHint")} />
              <Switch checked={form.auto_ban} onChange={(v) => set("auto_ban", v)} label={t("autoBan")} hint={t("autoBanHint")} />
              <TextareaField
                label={t("statusCodeMapping")}
                className="sm:col-span-2"
                rows={3}
                placeholder='{"400": "500"}'
                value={form.status_code_mapping}
                error={statusMappingBad ? t("statusMappingInvalid") : undefined}
                onChange={(e) => set("status_code_mapping", e.target.value)}
              />
            </div>
          </Card>

          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => router.push("/admin/channels")}>
              {tc("cancel")}
            </Button>
            <Button type="submit" disabled={busy}>
              {tc("save")}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
