"use client";
// OIDC sign-in settings (docs/settings.md): the Well-Known fetch asks the server
// (POST /api/option/oidc_discovery, through the outbound policy) for the discovery document
// and fills the three endpoint fields; the admin then saves the section.
import type { OptionKey } from "@/lib/options/registry";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useFormContext } from "react-hook-form";
import { fieldName, FieldGrid, OptionSecret, OptionSwitch, OptionText, SettingsSection, useOptionAccess } from "@/components/forms";
import { Button } from "@/components/ui/button";
import { api, ApiError } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import { say } from "@/lib/i18n/render";
import { checkOptionValue } from "@/lib/options/rules";
import { useLabel } from "./operation-tab";
import { OAuthAddressWarning } from "./oauth-address-warning";
import { useServerCatalogue } from "@/lib/i18n/client-catalogue";

const KEYS: OptionKey[] = [
  "oidc.enabled",
  "oidc.client_id",
  "oidc.client_secret",
  "oidc.well_known",
  "oidc.authorization_endpoint",
  "oidc.token_endpoint",
  "oidc.user_info_endpoint",
];

type Discovery = { authorization_endpoint: string; token_endpoint: string; userinfo_endpoint: string };

function FetchWellKnown() {
  const t = useTranslations("settings.system");
  const { getValues, setValue } = useFormContext<Record<string, string>>();
  const { writable } = useOptionAccess("oidc.well_known");
  const catalogue = useServerCatalogue();
  const [busy, setBusy] = useState(false);
  if (!writable) return null;
  const run = async () => {
    // the server's own rule and message (lib/options/rules.ts), checked before asking it
    const check = checkOptionValue("oidc.well_known", getValues(fieldName("oidc.well_known")) ?? "");
    if (!check.ok || check.value === "") {
      toast.error({ text: check.ok ? say(catalogue, "oidc_well_known_missing") : say(catalogue, check.key, check.params) });
      return;
    }
    const url = check.value;
    setBusy(true);
    try {
      const res = await api.post<Discovery>("/api/option/oidc_discovery", { well_known: url }, { quiet: true });
      const opts = { shouldDirty: true, shouldValidate: true };
      setValue(fieldName("oidc.authorization_endpoint"), res.data.authorization_endpoint, opts);
      setValue(fieldName("oidc.token_endpoint"), res.data.token_endpoint, opts);
      setValue(fieldName("oidc.user_info_endpoint"), res.data.userinfo_endpoint, opts);
      toast.success({ key: "settings.system.oidcFetched" });
    } catch (e) {
      if (e instanceof ApiError && e.failure.kind === "message") toast.error({ text: e.message });
      else toast.error({ key: "settings.system.oidcFailed" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" disabled={busy} onClick={run}>
      {t("fetchWellKnown")}
    </Button>
  );
}

export function OidcSection() {
  const t = useTranslations("settings.system");
  const L = useLabel();
  return (
    <SettingsSection title="OIDC" keys={KEYS} description={t("oidcHint")}>
      <OptionSwitch name="oidc.enabled" label={L("oidc.enabled")} />
      <OAuthAddressWarning enabledKey="oidc.enabled" />
      <FieldGrid cols={2}>
        <OptionText name="oidc.client_id" label={L("ClientId")} />
        <OptionSecret name="oidc.client_secret" label={L("ClientSecret")} />
      </FieldGrid>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <OptionText
          name="oidc.well_known"
          label={L("oidc.well_known")}
          type="url"
          placeholder="https://idp.example.com/.well-known/openid-configuration"
          className="flex-1"
        />
        <FetchWellKnown />
      </div>
      <FieldGrid>
        <OptionText name="oidc.authorization_endpoint" label={L("oidc.authorization_endpoint")} type="url" />
        <OptionText name="oidc.token_endpoint" label={L("oidc.token_endpoint")} type="url" />
        <OptionText name="oidc.user_info_endpoint" label={L("oidc.user_info_endpoint")} type="url" />
      </FieldGrid>
    </SettingsSection>
  );
}
