"use client";
// The operation tab's "Other ratios" section (docs/pricing.md, "Fetch, reset and fill"):
// fetch or reset the preset ratios (each confirmed first), the root's "restore server
// defaults" (POST /api/option/rest_model_ratio: the four price options back to the built-in
// table, confirmed first), the preset source, fallback
// pricing (the kit's schema checks the combination as a whole, as the server does:
// a single price alone, or both ratios and no price) and redirect billing.
import type { OptionKey } from "@/lib/options/registry";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { FieldGrid, OptionNumber, OptionSelect, OptionSwitch, OptionText, SettingsSection, useConfirm } from "@/components/forms";
import type { SettingsPlugInProps } from "@/components/settings/plug-in";
import { useSessionUser } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/client/api";
import { isRootRole } from "@/lib/client/navigation";
import { toast } from "@/lib/client/toast";
import { presetCall } from "./preset-calls";

const KEYS: OptionKey[] = [
  "PresetRatioSourceUrl",
  "PresetRatioSourceKind",
  "fallback_pricing_enabled",
  "fallback_single_price",
  "fallback_input_ratio",
  "fallback_completion_ratio",
  "redirect_billing_enabled",
];

export function OtherRatiosSection({ reload }: SettingsPlugInProps) {
  const t = useTranslations("pricingEditor");
  const [busy, setBusy] = useState(false);
  const fetchConfirm = useConfirm({ title: t("fetchConfirmTitle"), description: t("fetchConfirm"), action: t("fetchPresets") });
  const resetConfirm = useConfirm({ title: t("resetConfirmTitle"), description: t("resetConfirm"), action: t("resetPresets"), danger: true });
  const restoreConfirm = useConfirm({ title: t("restoreConfirmTitle"), description: t("restoreConfirm"), action: t("restoreDefaults"), danger: true });
  const isRoot = isRootRole(useSessionUser()?.role ?? 0);

  const restore = async () => {
    if (!(await restoreConfirm.ask())) return;
    setBusy(true);
    try {
      await api.post("/api/option/rest_model_ratio", {}, { quiet: true });
      toast.success({ key: "pricingEditor.restored" });
      await reload().catch(() => toast.error({ key: "settingsKit.refreshFailed" }));
    } catch {
      toast.error({ key: "pricingEditor.restoreFailed" });
    } finally {
      setBusy(false);
    }
  };

  const run = async (kind: "fetch" | "reset") => {
    const ask = kind === "fetch" ? fetchConfirm.ask : resetConfirm.ask;
    if (!(await ask())) return;
    setBusy(true);
    try {
      if (kind === "fetch") {
        const r = await presetCall<{ added: number }>("fetch", "/api/option/preset_ratio/fetch");
        if (r) toast.success({ key: "pricingEditor.fetched", values: { n: r.added } });
      } else {
        const r = await presetCall<{ removed: number; kept: string[] }>("reset", "/api/option/preset_ratio/reset");
        if (r) toast.success({ key: "pricingEditor.resetDone", values: { n: r.removed, kept: r.kept.length } });
      }
      await reload().catch(() => toast.error({ key: "settingsKit.refreshFailed" }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <SettingsSection title={t("otherTitle")} keys={KEYS}>
      <div className="flex flex-col gap-3 rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
        <div>
          <h3 className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{t("presetTitle")}</h3>
          <p className="text-xs text-zinc-500 dark:text-zinc-400">{t("presetHint")}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" disabled={busy} onClick={() => void run("fetch")}>
            {t("fetchPresets")}
          </Button>
          <Button variant="secondary" disabled={busy} onClick={() => void run("reset")}>
            {t("resetPresets")}
          </Button>
          {isRoot && (
            <Button variant="danger" disabled={busy} onClick={() => void restore()}>
              {t("restoreDefaults")}
            </Button>
          )}
        </div>
        <FieldGrid cols={2}>
          <OptionText name="PresetRatioSourceUrl" label={t("sourceUrl")} hint={t("sourceUrlHint")} type="url" placeholder="https://" />
          <OptionSelect
            name="PresetRatioSourceKind"
            label={t("sourceKind")}
            choices={[
              { value: "flexible", label: t("kinds.flexible") },
              { value: "openrouter", label: t("kinds.openrouter") },
              { value: "mixed", label: t("kinds.mixed") },
            ]}
          />
        </FieldGrid>
      </div>
      <div className="flex flex-col gap-3">
        <OptionSwitch name="fallback_pricing_enabled" label={t("fallbackEnabled")} hint={t("fallbackHint")} />
        <FieldGrid>
          <OptionNumber name="fallback_single_price" label={t("fallbackSinglePrice")} hint={t("fallbackSinglePriceHint")} step="any" min={0} />
          <OptionNumber name="fallback_input_ratio" label={t("fallbackInputRatio")} step="any" min={0} />
          <OptionNumber name="fallback_completion_ratio" label={t("fallbackCompletionRatio")} step="any" min={0} />
        </FieldGrid>
      </div>
      <OptionSwitch name="redirect_billing_enabled" label={t("redirectBilling")} hint={t("redirectBillingHint")} />
      {fetchConfirm.dialog}
      {resetConfirm.dialog}
      {restoreConfirm.dialog}
    </SettingsSection>
  );
}
