"use client";
// The "send code" button of e-mail verification (register, /app/me) and the reset request:
// after a send request it is disabled for a 30-second countdown (docs/accounts-api.md).
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";

export const RESEND_COOLDOWN_SECONDS = 30;

/** Seconds left of the countdown, and start() to begin one. */
export function useCountdown(seconds = RESEND_COOLDOWN_SECONDS) {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return { left, start: () => setLeft(seconds) };
}

/** Calls send(); the countdown starts once a code was sent (a refused request may be retried at once: the server withdrew nothing it did not send). */
export function SendCodeButton({ send, label }: { send: () => Promise<unknown>; label?: string }) {
  const t = useTranslations("mail");
  const { left, start } = useCountdown();
  const [busy, setBusy] = useState(false);
  async function click() {
    setBusy(true);
    try {
      await send();
      start();
    } catch {
      // reported by the API helper; a refused request may be retried at once
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant="secondary" onClick={click} disabled={busy || left > 0} className="shrink-0 whitespace-nowrap" data-testid="send-code">
      {left > 0 ? t("resendIn", { seconds: left }) : (label ?? t("sendCode"))}
    </Button>
  );
}
