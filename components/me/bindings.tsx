"use client";
// Third-party bindings (docs/oauth.md, "Binding"). On /app/me (`self`) each provider the site
// has on gets a bind button: GitHub, OIDC, LINUX DO and IDC Flare start a sign-in that, being
// started by a signed-in user, binds; WeChat takes the code of the QR dialog; Telegram uses its
// widget. Elsewhere (the admin's user editor) they are read-only, and the root may clear one
// (`clearFor`), after the kit's confirmation dialog. A bind needs a fresh second factor when
// the user has one (docs/oauth.md): asked for before it starts.
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useConfirm } from "@/components/forms/use-confirm";
import { Button } from "@/components/ui/button";
import { useStatus } from "@/components/layout/providers";
import { startOAuth, telegramQuery, type RedirectProvider } from "@/components/auth/oauth-buttons";
import { TelegramWidget } from "@/components/auth/telegram-widget";
import { WeChatDialog } from "@/components/auth/wechat-dialog";
import { ensureFreshFactor } from "@/components/me/fresh-factor";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";
import { BINDING_FIELDS, type User } from "@/lib/client/user";

type Field = (typeof BINDING_FIELDS)[number];
const PROVIDER_OF: Partial<Record<Field, RedirectProvider | "wechat" | "telegram">> = {
  github_id: "github",
  oidc_id: "oidc",
  linux_do_id: "linuxdo",
  idc_flare_id: "idcflare",
  wechat_id: "wechat",
  telegram_id: "telegram",
};

export function Bindings({ user, self = false, clearFor, onChanged }: { user: Pick<User, Field>; self?: boolean; clearFor?: number; onChanged?: () => void }) {
  const t = useTranslations("bindings");
  const status = useStatus();
  const [wechat, setWechat] = useState(false);
  const [telegram, setTelegram] = useState(false);
  const confirmClear = useConfirm({ title: t("clearConfirm"), action: t("clear"), danger: true });
  const enabled: Record<string, boolean> = {
    github: status.github_oauth,
    oidc: status.oidc_enabled,
    linuxdo: status.linuxdo_oauth,
    idcflare: status.idcflare_oauth,
    wechat: status.wechat_login,
    telegram: status.telegram_oauth && !!status.telegram_bot_name,
  };

  async function done(path: string, method: "get" | "del" = "get") {
    try {
      const r = await (method === "del" ? api.del(path) : api.get(path));
      toast.success({ text: r.message || t("bound") });
      setWechat(false);
      setTelegram(false);
      onChanged?.();
    } catch {
      // reported by the API helper
    }
  }

  async function bind(provider: RedirectProvider | "wechat" | "telegram") {
    if (!(await ensureFreshFactor())) return;
    if (provider === "wechat") setWechat(true);
    else if (provider === "telegram") setTelegram(true);
    else startOAuth(provider, { returnTo: "/app/me" });
  }

  async function clear(provider: string) {
    if (clearFor === undefined || !(await confirmClear.ask())) return;
    await done(`/api/user/${clearFor}/binding/${provider}`, "del");
  }

  return (
    <>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        {BINDING_FIELDS.map((f) => {
          const provider = PROVIDER_OF[f];
          return (
            <div key={f} className="flex items-center justify-between gap-3 border-b border-zinc-100 py-1.5 dark:border-zinc-800">
              <dt className="text-zinc-500 dark:text-zinc-400">{t(f)}</dt>
              <dd className="flex min-w-0 items-center gap-2 text-zinc-900 dark:text-zinc-100">
                <span className="truncate">{user[f] || <span className="text-zinc-400">{t("none")}</span>}</span>
                {self && provider && enabled[provider] && (
                  <Button size="sm" variant="secondary" onClick={() => void bind(provider)} aria-label={t("bindLabel", { provider: t(f) })}>
                    {user[f] ? t("rebind") : t("bind")}
                  </Button>
                )}
                {clearFor !== undefined && provider && user[f] && (
                  <Button size="sm" variant="secondary" onClick={() => void clear(provider)} aria-label={t("clearLabel", { provider: t(f) })}>
                    {t("clear")}
                  </Button>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
      {self && enabled.wechat && (
        <WeChatDialog
          open={wechat}
          onOpenChange={setWechat}
          qrcode={status.wechat_qrcode}
          onCode={(code) => done(`/api/oauth/wechat/bind?code=${encodeURIComponent(code)}`)}
        />
      )}
      {confirmClear.dialog}
      {self && telegram && (
        <TelegramWidget botName={status.telegram_bot_name} onAuth={(auth) => void done(`/api/oauth/telegram/bind?${telegramQuery(auth)}`)} />
      )}
    </>
  );
}
