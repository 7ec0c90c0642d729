"use client";
// The channel editor's "Responses only" switch (the channel setting `responses_only`,
// lib/channels/responses-only.ts; docs/relay.md, "The Responses API"): shown for the channel
// types that speak OpenAI's wire, where it means something.
import { useTranslations } from "next-intl";
import { FormSwitch } from "@/components/forms/form-fields";
import { RESPONSES_ONLY_TYPES } from "@/lib/channels/responses-only";

export function ResponsesOnlyField({ type }: { type: number }) {
  const t = useTranslations("channelResponses");
  if (!RESPONSES_ONLY_TYPES.has(type)) return null;
  return <FormSwitch name="responses_only" label={t("label")} hint={t("hint")} />;
}
