"use client";
// The visual editor's dialogs (docs/pricing.md, "The visual editor"): add or edit one model
// in a pricing mode (per token by ratio, per token by price, per request), and the batch set
// of the selected models. The rules are lib/client/model-pricing.ts.
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field, SelectField } from "@/components/ui/input";
import { RadioGroup } from "@/components/ui/radio-group";
import {
  applyBatch,
  checkNewName,
  draftOf,
  rowFromDraft,
  switchMode,
  type BatchTarget,
  type PriceMaps,
  type PricingError,
  type PricingMode,
  type PricingRow,
  type RowDraft,
} from "@/lib/client/model-pricing";

function ErrorLine({ error }: { error: PricingError | null }) {
  const t = useTranslations("pricingEditor.errors");
  if (!error) return null;
  return (
    <p role="alert" className="text-sm text-red-600 dark:text-red-400">
      {t(error)}
    </p>
  );
}

/** Add (row null) or edit one model. `names` are the models that exist (a new name must not be one). */
export function RowDialog({
  open,
  row,
  names,
  onClose,
  onSave,
}: {
  open: boolean;
  row: PricingRow | null;
  names: string[];
  onClose: () => void;
  onSave: (row: PricingRow) => void;
}) {
  const t = useTranslations("pricingEditor");
  const [draft, setDraft] = useState<RowDraft>(() => draftOf(row ?? { name: "" }));
  const [error, setError] = useState<PricingError | null>(null);
  const set = (patch: Partial<RowDraft>) => {
    setDraft((d) => Object.assign({}, d, patch));
    setError(null);
  };
  const submit = () => {
    if (!row) {
      const nameError = checkNewName(draft.name, names);
      if (nameError) return setError(nameError);
    }
    const r = rowFromDraft(draft);
    if (!r.ok) return setError(r.error);
    onSave(r.row);
  };
  const modes: { value: PricingMode; label: string }[] = [
    { value: "ratio", label: t("modes.ratio") },
    { value: "tokenPrice", label: t("modes.tokenPrice") },
    { value: "perRequest", label: t("modes.perRequest") },
  ];
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={row ? t("editTitle", { name: row.name }) : t("addTitle")}
      footer={<DialogActions cancel={t("cancel")} onCancel={onClose} action={t("confirm")} onAction={submit} />}
    >
      <form
        className="flex flex-col gap-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Field label={t("columns.name")} value={draft.name} disabled={row !== null} onChange={(e) => set({ name: e.target.value })} autoFocus={row === null} />
        <RadioGroup
          legend={t("mode")}
          value={draft.mode}
          options={modes}
          onChange={(mode) => {
            setDraft((d) => switchMode(d, mode));
            setError(null);
          }}
        />
        {draft.mode === "ratio" && (
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <Field label={t("columns.ratio")} inputMode="decimal" value={draft.ratio} onChange={(e) => set({ ratio: e.target.value })} />
            <Field
              label={t("columns.completionRatio")}
              inputMode="decimal"
              value={draft.completionRatio}
              onChange={(e) => set({ completionRatio: e.target.value })}
              hint={t("completionHint")}
            />
          </div>
        )}
        {draft.mode === "tokenPrice" && (
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <Field
              label={t("inputPrice")}
              inputMode="decimal"
              value={draft.inputPrice}
              onChange={(e) => set({ inputPrice: e.target.value })}
              hint={t("perMillion")}
            />
            <Field
              label={t("outputPrice")}
              inputMode="decimal"
              value={draft.outputPrice}
              onChange={(e) => set({ outputPrice: e.target.value })}
              hint={t("perMillion")}
            />
            <p className="text-xs text-zinc-500 sm:col-span-2 dark:text-zinc-400">{t("conversionHint")}</p>
          </div>
        )}
        {draft.mode === "perRequest" && (
          <Field label={t("columns.price")} inputMode="decimal" value={draft.price} onChange={(e) => set({ price: e.target.value })} hint={t("perCall")} />
        )}
        <ErrorLine error={error} />
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}

export function BatchDialog({
  open,
  models,
  maps,
  onClose,
  onApply,
}: {
  open: boolean;
  models: string[];
  maps: PriceMaps;
  onClose: () => void;
  onApply: (maps: PriceMaps) => void;
}) {
  const t = useTranslations("pricingEditor");
  const [target, setTarget] = useState<BatchTarget>("ratio");
  const [value, setValue] = useState("");
  const [value2, setValue2] = useState("");
  const [error, setError] = useState<PricingError | null>(null);
  const submit = () => {
    const r = applyBatch(maps, { models, target, value, value2 });
    if (!r.ok) return setError(r.error);
    onApply(r.maps);
  };
  const targets: BatchTarget[] = ["ratio", "completionRatio", "bothRatios", "price"];
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={t("batchTitle")}
      description={t("batchSelected", { n: models.length })}
      footer={<DialogActions cancel={t("cancel")} onCancel={onClose} action={t("confirm")} onAction={submit} />}
    >
      <div className="flex flex-col gap-4">
        <SelectField
          label={t("batchTarget")}
          value={target}
          onChange={(e) => {
            setTarget(e.target.value as BatchTarget);
            setError(null);
          }}
        >
          {targets.map((x) => (
            <option key={x} value={x}>
              {t(`batchTargets.${x}`)}
            </option>
          ))}
        </SelectField>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <Field
            label={target === "price" ? t("columns.price") : target === "completionRatio" ? t("columns.completionRatio") : t("columns.ratio")}
            inputMode="decimal"
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
            }}
          />
          {target === "bothRatios" && (
            <Field
              label={t("columns.completionRatio")}
              inputMode="decimal"
              value={value2}
              onChange={(e) => {
                setValue2(e.target.value);
                setError(null);
              }}
            />
          )}
        </div>
        <ErrorLine error={error} />
      </div>
    </Dialog>
  );
}
