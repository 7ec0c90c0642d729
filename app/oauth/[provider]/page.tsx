import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { OAuthCallback } from "@/components/auth/oauth-callback";

export async function generateMetadata() {
  const t = await getTranslations("oauth");
  return { title: t("callbackTitle") };
}

const PROVIDERS = new Set(["github", "oidc", "linuxdo", "idcflare"]);

export default async function OAuthCallbackPage({ params }: { params: Promise<{ provider: string }> }) {
  const { provider } = await params;
  if (!PROVIDERS.has(provider)) notFound();
  return <OAuthCallback provider={provider} />;
}
