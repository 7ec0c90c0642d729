"use client";
// The channel editor's "Responses only" switch (the channel setting `responses_only`,
// lib/channels/responses-only.ts; docs/relay.md, "The Responses API"): the editor shows it for
// the types whose adapter has the option (GET /api/channel/types, `responsesOnly`).
import { useTranslations } from "next-intl";
import { FormSwitch } from "@/components/forms/form-fields";

export function ResponsesOnlyField() {
  const t = useTranslations("channelResponses");
  return <FormSwitch name="responses_only" label={t("label")} hint={t("hint")} />;
}
