"use client";
// The human check's widget (docs/oauth.md, "The human check"): shown only when the site status
// says TurnstileCheckEnabled; Cloudflare's script renders it with the site key and hands back a
// token, which the form sends as ?turnstile=. A token is good for one call, so the widget is
// drawn again after each. Submitting before the token arrives shows "retry in a few seconds".
import { useCallback, useEffect, useRef, useState } from "react";
import { useStatus } from "@/components/layout/providers";
import { toast } from "@/lib/client/toast";

type TurnstileApi = {
  render: (
    el: HTMLElement,
    opts: { sitekey: string; callback: (token: string) => void; "expired-callback": () => void; "error-callback": () => void },
  ) => string;
  remove: (id: string) => void;
};

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

const SCRIPT = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";
let loading: Promise<void> | null = null;

function loadScript(): Promise<void> {
  if (window.turnstile) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const s = document.createElement("script");
    s.src = SCRIPT;
    s.async = true;
    s.onload = () => resolve();
    s.onerror = () => {
      loading = null;
      reject(new Error("turnstile script"));
    };
    document.head.appendChild(s);
  });
  return loading;
}

function TurnstileBox({ siteKey, onToken }: { siteKey: string; onToken: (token: string) => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let id: string | null = null;
    let gone = false;
    loadScript()
      .then(() => {
        if (gone || !box.current || !window.turnstile) return;
        id = window.turnstile.render(box.current, {
          sitekey: siteKey,
          callback: onToken,
          "expired-callback": () => onToken(""),
          "error-callback": () => onToken(""),
        });
      })
      .catch(() => {});
    return () => {
      gone = true;
      if (id && window.turnstile) window.turnstile.remove(id);
    };
  }, [siteKey, onToken]);
  return <div ref={box} className="flex min-h-16 justify-center" data-testid="turnstile" />;
}

export type HumanCheck = ReturnType<typeof useTurnstile>;

export function useTurnstile() {
  const status = useStatus();
  const on = status.turnstile_check;
  const [token, setToken] = useState("");
  const [round, setRound] = useState(0);
  const onToken = useCallback((t: string) => setToken(t), []);
  const widget = on ? <TurnstileBox key={round} siteKey={status.turnstile_site_key} onToken={onToken} /> : null;
  return {
    widget,
    // false (and the "check in progress" message) while the check has not answered yet
    ready(): boolean {
      if (on && !token) {
        toast.error({ key: "oauth.turnstilePending" });
        return false;
      }
      return true;
    },
    // the query parameter for the call, "" when the check is off; `first` when it starts the query
    param(first: boolean): string {
      return on ? `${first ? "?" : "&"}turnstile=${encodeURIComponent(token)}` : "";
    },
    // after a call: the token is used up
    reset() {
      if (!on) return;
      setToken("");
      setRound((r) => r + 1);
    },
  };
}
