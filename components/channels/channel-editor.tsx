"use client";
// /channel/add and /channel/edit/{id} (docs/channels-tokens-billing.md). The key is never loaded
// back: on edit a blank key keeps the stored one. A react-hook-form checked by the server's
// rules (components/channels/channel-form.ts, docs/console-ui.md "Forms"); server messages
// are shown as toasts.
import { ModelChecklist } from "@/components/forms/model-checklist";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Plus, RefreshCw } from "lucide-react";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import { FormProvider, useWatch } from "react-hook-form";
import useSWR from "swr";
import { FormSelect, FormSwitch, FormText, FormTextarea } from "@/components/forms/form-fields";
import { toastFirstError, useRuleForm } from "@/components/forms/rule-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, PageTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { api } from "@/lib/client/api";
import { channelTypeName } from "@/lib/channels/channel-types";
import type { ChannelTypeInfo } from "@/lib/channel-admin/type-profiles";
import { splitList } from "@/lib/channels/split-list";
import { toast } from "@/lib/client/toast";
import { blankChannelForm, channelBody, channelFormSchema, channelToForm, type ChannelForm } from "./channel-form";
import { GroupCheckboxes } from "./group-checkboxes";
import { MultiKeyKeys } from "./multi-key-keys";
import { ResponsesOnlyField } from "./responses-only-field";
import type { Channel } from "./types";
import type { ChannelInfo } from "@/lib/channels/multi-key-rules";
import { useServerCatalogue } from "@/lib/i18n/client-catalogue";
import type { Locale } from "@/lib/i18n/locale";

const NO_MODELS: readonly string[] = [];

// The 400 px model picker: first the models the type's adapter knows (its profile's
// knownModels, GET /api/channel/types), then those configured on channels of the type, then
// on other channels (GET /api/models).
function ModelPicker({ type, known, chosen, onChange }: { type: number; known: readonly string[]; chosen: string[]; onChange: (m: string[]) => void }) {
  const t = useTranslations("channels.editor");
  const { data } = useSWR<Record<string, string[]>>("/api/models");
  const [q, setQ] = useState("");
  const all = useMemo(() => {
    const own = data?.[String(type)] ?? [];
    const rest = Object.values(data ?? {}).flat();
    return [...new Set([...known, ...own, ...rest, ...chosen])];
  }, [data, type, known, chosen]);
  const shown = all.filter((m) => m.toLowerCase().includes(q.trim().toLowerCase()));
  return (
    <div className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <Input aria-label={t("pickerSearch")} placeholder={t("pickerSearch")} value={q} onChange={(e) => setQ(e.target.value)} />
      <ModelChecklist shown={shown} chosen={chosen} onChange={onChange} empty={t("pickerEmpty")} className="h-[400px] overflow-y-auto" testId="model-picker" />
    </div>
  );
}

export function ChannelEditor({ id }: { id: number | null }) {
  const t = useTranslations("channels.editor");
  const tc = useTranslations("channels");
  const tm = useTranslations("channels.multiKey");
  const router = useRouter();
  const catalogue = useServerCatalogue();
  const locale = useLocale() as Locale;
  const schema = useMemo(() => channelFormSchema(catalogue, id), [catalogue, id]);
  const form = useRuleForm<ChannelForm>(schema, blankChannelForm());
  const { control, getValues, setValue, reset, trigger, handleSubmit, formState } = form;
  const [loaded, setLoaded] = useState(id === null);
  const [keySet, setKeySet] = useState(false);
  // a multi-key channel's key statuses (edit only; never a key)
  const [keyInfo, setKeyInfo] = useState<ChannelInfo | null>(null);
  const [custom, setCustom] = useState("");
  const [busy, setBusy] = useState(false);
  const { data: groups } = useSWR<string[]>("/api/group/");
  // the types something serves, each as its adapter describes it (docs/providers.md)
  const { data: types } = useSWR<ChannelTypeInfo[]>("/api/channel/types");

  useEffect(() => {
    if (id === null) return;
    api
      .get<Channel>(`/api/channel/${id}`)
      .then((r) => {
        reset(channelToForm(r.data));
        setKeySet(r.data.key_set);
        setKeyInfo(r.data.channel_info?.is_multi_key ? r.data.channel_info : null);
        setLoaded(true);
      })
      .catch(() => {
        // reported by the API helper
      });
  }, [id, reset]);

  const [typeText, batch, multiKey, keyMode, models, chosenGroups, modelMapping, statusMapping] = useWatch({
    control,
    name: ["type", "batch", "multi_key", "key_mode", "models", "groups", "model_mapping", "status_code_mapping"],
  });
  const type = Number(typeText);
  const info = types?.find((ty) => ty.id === type);
  const format = info?.keyFormat ?? null;

  // The JSON fields are checked as they are typed (before any save), as they always were.
  useEffect(() => {
    if (loaded) void trigger("model_mapping");
  }, [modelMapping, loaded, trigger]);
  useEffect(() => {
    if (loaded) void trigger("status_code_mapping");
  }, [statusMapping, loaded, trigger]);

  const setModels = (next: string[]) => setValue("models", next, { shouldValidate: formState.isSubmitted, shouldDirty: true });

  function addCustom() {
    const extra = splitList(custom.replace(/\n/g, ","));
    if (!extra.length) return;
    setModels([...new Set([...getValues("models"), ...extra])]);
    setCustom("");
  }

  // Upstream model list: the form's key when typed, else (on edit) the stored channel's.
  async function fetchModels() {
    const { key, base_url } = getValues();
    setBusy(true);
    try {
      const r =
        key.trim() || id === null
          ? await api.post<string[]>("/api/channel/fetch_models", { base_url, type, key })
          : await api.get<string[]>(`/api/channel/fetch_models/${id}`);
      setModels([...new Set([...getValues("models"), ...r.data])]);
      toast.success({ key: "channels.editor.fetched", values: { count: r.data.length } });
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  async function save(values: ChannelForm) {
    setBusy(true);
    try {
      if (id === null) {
        await api.post("/api/channel/", channelBody(values, null, info?.responsesOnly));
        toast.success({ key: "channels.editor.created" });
      } else {
        await api.put("/api/channel/", channelBody(values, id, info?.responsesOnly));
        toast.success({ key: "channels.saved" });
      }
      router.push("/admin/channels");
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }

  const allGroups = [...new Set([...(groups ?? []), ...chosenGroups])];
  // `other` is shown where the type gives it a meaning (or a stored value would otherwise be hidden)
  const otherShown = info?.other != null || getValues("other") !== "";
  const modelsError = formState.errors.models?.message;

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6">
      <PageTitle
        actions={
          <Link prefetch={false} href="/admin/channels" className="text-sm text-blue-700 hover:underline dark:text-blue-400">
            {t("back")}
          </Link>
        }
      >
        {id === null ? t("addTitle") : t("editTitle", { id })}
      </PageTitle>
      {!loaded ? (
        <p className="text-sm text-zinc-500">{tc("loading")}</p>
      ) : (
        <FormProvider {...form}>
          <form onSubmit={handleSubmit(save, toastFirstError)} noValidate className="flex flex-col gap-5">
            <Card title={t("basics")}>
              <div className="grid gap-4 sm:grid-cols-2">
                <FormSelect name="type" label={tc("fields.type")}>
                  {(types ?? []).map((ty) => (
                    <option key={ty.id} value={String(ty.id)}>
                      {ty.id} · {ty.name}
                    </option>
                  ))}
                  {!info && (
                    <option value={typeText}>
                      {typeText} · {channelTypeName(type)}
                    </option>
                  )}
                </FormSelect>
                <FormText name="name" label={tc("fields.name")} required />
                <FormText
                  name="base_url"
                  label={tc("fields.baseUrl")}
                  className="sm:col-span-2"
                  placeholder={info?.basePlaceholder || t("baseUrlRequired")}
                  hint={info?.defaultBaseUrl ? t("baseUrlDefault", { url: info.defaultBaseUrl }) : t("baseUrlHint")}
                />
                <FormTextarea
                  name="key"
                  label={tc("fields.key")}
                  className="sm:col-span-2"
                  rows={batch || multiKey ? 5 : 2}
                  autoComplete="off"
                  placeholder={format ?? (multiKey ? tm("keyPlaceholder") : batch ? t("keyBatchPlaceholder") : t("keyPlaceholder"))}
                  hint={[
                    id !== null ? (keyInfo ? tm(keyMode === "append" ? "keyAppendHint" : "keyReplaceHint") : keySet ? t("keyKept") : t("keyMissing")) : null,
                    format ? t("keyFormat", { format }) : null,
                    info?.keyHint?.[locale],
                  ]
                    .filter(Boolean)
                    .join(" ")}
                />
                {id === null && !multiKey && <FormSwitch name="batch" label={t("batch")} hint={t("batchHint")} />}
                {id === null && !batch && <FormSwitch name="multi_key" label={tm("switch")} hint={tm("switchHint")} />}
                {(multiKey || keyInfo) && (
                  <FormSelect name="multi_key_mode" label={tm("mode")} hint={tm("modeHint")}>
                    <option value="random">{tm("random")}</option>
                    <option value="polling">{tm("polling")}</option>
                  </FormSelect>
                )}
                {keyInfo && (
                  <FormSelect name="key_mode" label={tm("keyMode")}>
                    <option value="append">{tm("append")}</option>
                    <option value="replace">{tm("replace")}</option>
                  </FormSelect>
                )}
                {keyInfo && id !== null && <MultiKeyKeys channelId={id} info={keyInfo} onChange={setKeyInfo} />}
                {otherShown && (
                  <FormText
                    name="other"
                    label={info?.other?.label[locale] ?? t("other")}
                    placeholder={info?.other?.placeholder}
                    hint={info?.other?.hint?.[locale] ?? (info && !info.other ? t("otherUnused") : undefined)}
                  />
                )}
                {info?.responsesOnly && <ResponsesOnlyField />}
              </div>
            </Card>

            <Card title={tc("fields.models")}>
              <div className="flex flex-col gap-3">
                <div className="flex flex-wrap gap-1" aria-label={t("chosenModels")}>
                  {models.length === 0 && <span className="text-sm text-zinc-500">{t("noModels")}</span>}
                  {models.map((m) => (
                    <button key={m} type="button" onClick={() => setModels(models.filter((x) => x !== m))} title={t("removeModel")}>
                      <Badge color="blue">{m} ×</Badge>
                    </button>
                  ))}
                </div>
                {modelsError && (
                  <p role="alert" className="text-xs text-red-600 dark:text-red-400">
                    {modelsError}
                  </p>
                )}
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
                  <Button variant="ghost" onClick={() => setModels([])}>
                    {t("clearModels")}
                  </Button>
                </div>
                <ModelPicker type={type} known={info?.knownModels ?? NO_MODELS} chosen={models} onChange={setModels} />
                <FormTextarea
                  name="model_mapping"
                  label={tc("fields.modelMapping")}
                  rows={4}
                  placeholder='{"gpt-4o": "gpt-4o-2024-08-06"}'
                  hint={t("mappingHint")}
                />
                <FormText name="test_model" label={tc("fields.testModel")} hint={t("testModelHint")} />
              </div>
            </Card>

            <Card title={t("routing")}>
              <div className="grid gap-4 sm:grid-cols-2">
                <GroupCheckboxes
                  className="sm:col-span-2"
                  legend={tc("fields.groups")}
                  groups={allGroups}
                  chosen={chosenGroups}
                  onChange={(next) => setValue("groups", next, { shouldDirty: true })}
                />
                <FormText name="tag" label={tc("fields.tag")} />
                <FormText name="remark" label={tc("fields.remark")} />
                <FormText name="priority" label={tc("col.priority")} inputMode="numeric" hint={t("priorityHint")} />
                <FormText name="weight" label={tc("col.weight")} inputMode="numeric" hint={t("weightHint")} />
                <FormSwitch name="auto_ban" label={t("autoBan")} hint={t("autoBanHint")} />
                <FormTextarea name="status_code_mapping" label={t("statusCodeMapping")} className="sm:col-span-2" rows={3} placeholder='{"400": "500"}' />
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
        </FormProvider>
      )}
    </div>
  );
}
