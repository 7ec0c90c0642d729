import { getTranslations } from "next-intl/server";
import { LoginForm } from "@/components/auth/login-form";
import { isOAuthFailure } from "@/lib/oauth/failure";

export async function generateMetadata() {
  const t = await getTranslations("login");
  return { title: t("title") };
}

// step=2fa: a third-party sign-in answered {require_2fa: true}; the page opens at the code step.
// oauth_error: a third-party sign-in that could not go on (lib/oauth/failure.ts).
type Search = Promise<{ expired?: string; returnTo?: string; step?: string; oauth_error?: string }>;

export default async function LoginPage({ searchParams }: { searchParams: Search }) {
  const q = await searchParams;
  return (
    <LoginForm
      expired={q.expired === "true"}
      returnTo={q.returnTo ?? null}
      codeStep={q.step === "2fa"}
      oauthFailure={isOAuthFailure(q.oauth_error) ? q.oauth_error : null}
    />
  );
}
