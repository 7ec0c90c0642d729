"use client";
// "Sign in with a passkey" on the login page, shown when the site turned passkey sign-in on
// (status passkey_login) and the browser supports WebAuthn (docs/two-factor.md, "Passkeys").
// It shares the login form's human check: the begin call carries the widget's token, which is
// then used up whatever happens next.
import { browserSupportsWebAuthn } from "@simplewebauthn/browser";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { useStatus } from "@/components/layout/providers";
import { passkeyAssertion } from "@/components/me/fresh-factor";
import type { LocalUser } from "@/lib/client/storage";
import { toast } from "@/lib/client/toast";
import type { HumanCheck } from "./turnstile";

export function PasskeyLoginButton({ human, onDone }: { human: HumanCheck; onDone: (user: LocalUser) => void }) {
  const t = useTranslations("twofa");
  const status = useStatus();
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);
  if (!status.passkey_login || !supported) return null;
  async function signIn() {
    if (!human.ready()) return;
    setBusy(true);
    try {
      onDone((await passkeyAssertion(`/api/user/passkey/login/begin${human.param(true)}`, "/api/user/passkey/login/finish")) as LocalUser);
    } catch (err) {
      human.reset();
      if (err instanceof Error && (err.name === "NotAllowedError" || err.name === "AbortError")) toast.error({ key: "twofa.passkeyCancelled" });
      setBusy(false);
    }
  }
  return (
    <Button variant="secondary" className="justify-center" disabled={busy} onClick={signIn}>
      {t("passkeyLogin")}
    </Button>
  );
}
