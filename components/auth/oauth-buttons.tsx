"use client";
// Third-party sign-in on the login and register pages (docs/oauth.md): one button per
// provider the site status says is on, and nothing else. GitHub, OIDC, LINUX DO and IDC
// Flare go through GET /api/oauth/{provider}/authorize, which sends the browser on to the
// provider with a state bound to it; the page to return to is kept for /oauth/{provider}.
// WeChat opens the QR dialog; Telegram shows its login widget. A user with TOTP on is sent
// to the login page's code step (/login?step=2fa), as /oauth/{provider} does.
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useStatus } from "@/components/layout/providers";
import { api } from "@/lib/client/api";
import { setLocalUser, type LocalUser } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import { TelegramWidget, type TelegramAuth } from "./telegram-widget";
import { WeChatDialog } from "./wechat-dialog";

export const RETURN_TO_KEY = "oauth_return_to";

export type RedirectProvider = "github" | "oidc" | "linuxdo" | "idcflare";

export function startOAuth(provider: RedirectProvider, opts: { returnTo?: string; aff?: string } = {}) {
  if (opts.returnTo) sessionStorage.setItem(RETURN_TO_KEY, opts.returnTo);
  else sessionStorage.removeItem(RETURN_TO_KEY);
  window.location.assign(`/api/oauth/${provider}/authorize${opts.aff ? `?aff=${encodeURIComponent(opts.aff)}` : ""}`);
}

// Where a sign-in that answered {require_2fa: true} continues: the login page's code step,
// which completes the pending step the answer's cookie names (docs/two-factor.md, "Sign-in").
export function twoFactorStepPath(returnTo: string): string {
  return `/login?step=2fa&returnTo=${encodeURIComponent(returnTo)}`;
}

export function telegramQuery(auth: TelegramAuth, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams(extra);
  for (const [k, v] of Object.entries(auth)) if (v !== undefined && v !== null) q.set(k, String(v));
  return q.toString();
}

export function OAuthButtons({ returnTo, aff = "" }: { returnTo: string; aff?: string }) {
  const t = useTranslations("oauth");
  const status = useStatus();
  const [wechat, setWechat] = useState(false);
  const redirects: Array<{ key: RedirectProvider; on: boolean; label: string }> = [
    { key: "github", on: status.github_oauth, label: t("withGitHub") },
    { key: "oidc", on: status.oidc_enabled, label: t("withOidc") },
    { key: "linuxdo", on: status.linuxdo_oauth, label: t("withLinuxDo") },
    { key: "idcflare", on: status.idcflare_oauth, label: t("withIdcFlare") },
  ];
  const shown = redirects.filter((p) => p.on);
  const telegram = status.telegram_oauth && !!status.telegram_bot_name;
  if (shown.length === 0 && !status.wechat_login && !telegram) return null;

  async function signedIn(path: string) {
    try {
      const r = await api.get<LocalUser | { require_2fa: true }>(path);
      if ("require_2fa" in r.data) {
        window.location.assign(twoFactorStepPath(returnTo));
        return;
      }
      setLocalUser(r.data);
      toast.success({ key: "login.success" });
      window.location.assign(returnTo);
    } catch {
      // reported by the API helper
    }
  }

  return (
    <div className="mt-4 flex flex-col gap-2" data-testid="oauth-buttons">
      <div className="flex items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-700" />
        {t("or")}
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-700" />
      </div>
      {shown.map((p) => (
        <Button key={p.key} variant="secondary" className="justify-center" onClick={() => startOAuth(p.key, { returnTo, aff })}>
          {p.label}
        </Button>
      ))}
      {status.wechat_login && (
        <Button variant="secondary" className="justify-center" onClick={() => setWechat(true)}>
          {t("withWeChat")}
        </Button>
      )}
      {telegram && (
        <TelegramWidget
          botName={status.telegram_bot_name}
          onAuth={(auth) => signedIn(`/api/oauth/telegram/login?${telegramQuery(auth, aff ? { aff } : {})}`)}
        />
      )}
      <WeChatDialog
        open={wechat}
        onOpenChange={setWechat}
        qrcode={status.wechat_qrcode}
        onCode={(code) => signedIn(`/api/oauth/wechat?code=${encodeURIComponent(code)}${aff ? `&aff=${encodeURIComponent(aff)}` : ""}`)}
      />
    </div>
  );
}
