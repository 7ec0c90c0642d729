"use client";
// /oauth/{provider} (docs/oauth.md, "Callback page"): shows that it is working, hands code and
// state to GET /api/oauth/{provider}, then: a bind goes to the settings (an admin's
// /admin/settings, anyone else's /app/me, where bindings are made); a sign-in stores the user and
// goes to returnTo (the query's, or the one kept when the sign-in started) or /app/tokens (a
// user with TOTP on first to the login page's code step, /login?step=2fa); a
// failure is shown, then the same settings page (the login page for a visitor). A sign-in
// that never got a code (cancelled at the provider, or refused before it started:
// oauth_error) sends a visitor to the login page at once, which says why; a bind shows it here.
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { Card } from "@/components/ui/card";
import { api, ApiError } from "@/lib/client/api";
import { safeReturnTo } from "@/lib/client/errors";
import { isOAuthFailure, providerFailure } from "@/lib/oauth/failure";
import { getLocalUser, setLocalUser, type LocalUser } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import { RETURN_TO_KEY, twoFactorStepPath } from "./oauth-buttons";

const settingsPath = (user: LocalUser | null) => (!user ? "/login" : user.role >= 10 ? "/admin/settings" : "/app/me");

export function OAuthCallback({ provider }: { provider: string }) {
  const t = useTranslations("oauth");
  const [error, setError] = useState("");
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const q = new URLSearchParams(window.location.search);
    const kept = sessionStorage.getItem(RETURN_TO_KEY);
    sessionStorage.removeItem(RETURN_TO_KEY);
    const target = safeReturnTo(q.get("returnTo") ?? kept);
    const code = q.get("code") ?? "";
    const state = q.get("state") ?? "";
    const ours = q.get("oauth_error");
    const theirs = q.get("error");
    const failure = isOAuthFailure(ours) ? ours : theirs || !code ? providerFailure(theirs ?? "") : null;
    if (failure) {
      const user = getLocalUser();
      if (!user) return window.location.replace(`/login?oauth_error=${failure}`);
      setError(t(`failures.${failure}`));
      setTimeout(() => window.location.replace(settingsPath(user)), 3000);
      return;
    }
    (async () => {
      try {
        const r = await api.get<LocalUser | { require_2fa: true } | null>(
          `/api/oauth/${encodeURIComponent(provider)}?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
          {
            quiet: true,
          },
        );
        if (r.message === "bind") {
          toast.success({ key: "oauth.bound" });
          window.location.replace(settingsPath(getLocalUser()));
          return;
        }
        if (r.data && "require_2fa" in r.data) {
          // TOTP on: the login page's code step finishes the sign-in.
          window.location.replace(twoFactorStepPath(target));
          return;
        }
        setLocalUser(r.data!);
        toast.success({ key: "login.success" });
        window.location.replace(target);
      } catch (e) {
        setError(e instanceof ApiError ? e.message : t("failed"));
        setTimeout(() => window.location.replace(settingsPath(getLocalUser())), 3000);
      }
    })();
  }, [provider, t]);
  return (
    <div className="mx-auto mt-16 w-full max-w-md px-4">
      <Card title={t("callbackTitle")}>
        <p role="status" className={error ? "text-sm text-red-600 dark:text-red-400" : "text-sm text-zinc-600 dark:text-zinc-400"}>
          {error ? t("callbackFailed", { message: error }) : t("processing")}
        </p>
      </Card>
    </div>
  );
}
