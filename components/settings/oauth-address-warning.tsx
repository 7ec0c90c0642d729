"use client";
// A redirect sign-in (GitHub, OIDC, LINUX DO, IDC Flare) that is on while ServerAddress is
// empty cannot start: its button lands on the login page with a message (docs/oauth.md,
// "Sign-in that cannot start"). The settings say so next to the switch.
import { useTranslations } from "next-intl";
import { useOptionsState } from "@/components/forms";
import { Alert } from "@/components/ui/card";

export function OAuthAddressWarning({ enabledKey }: { enabledKey: string }) {
  const t = useTranslations("settings.system");
  const { options } = useOptionsState();
  if (options[enabledKey] !== "true" || (options.ServerAddress ?? "").trim() !== "") return null;
  return <Alert tone="warning">{t("oauthNeedsServerAddress")}</Alert>;
}
