"use client";
// Telegram's login widget (docs/oauth.md, "Telegram"): Telegram's script draws the button for
// the bot and hands the signed answer to onAuth; the server checks the signature.
import { useTranslations } from "next-intl";
import { useEffect, useRef } from "react";

export type TelegramAuth = { id: number; first_name?: string; last_name?: string; username?: string; photo_url?: string; auth_date: number; hash: string };

declare global {
  interface Window {
    onTelegramAuth?: (auth: TelegramAuth) => void;
  }
}

export function TelegramWidget({ botName, onAuth }: { botName: string; onAuth: (auth: TelegramAuth) => void }) {
  const t = useTranslations("oauth");
  const box = useRef<HTMLDivElement>(null);
  const handler = useRef(onAuth);
  useEffect(() => {
    handler.current = onAuth;
  });
  useEffect(() => {
    const target = box.current;
    if (!target) return;
    window.onTelegramAuth = (auth) => handler.current(auth);
    const script = document.createElement("script");
    script.async = true;
    script.src = "https://telegram.org/js/telegram-widget.js?22";
    script.setAttribute("data-telegram-login", botName);
    script.setAttribute("data-size", "large");
    script.setAttribute("data-request-access", "write");
    script.setAttribute("data-onauth", "onTelegramAuth(user)");
    target.appendChild(script);
    return () => {
      target.replaceChildren();
      delete window.onTelegramAuth;
    };
  }, [botName]);
  return <div ref={box} className="flex min-h-10 justify-center" data-testid="telegram-widget" aria-label={t("withTelegram")} />;
}
