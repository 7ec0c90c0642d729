"use client";
// The fresh second factor of sensitive actions (docs/two-factor.md, "Sensitive actions"):
// `if (!(await ensureFreshFactor())) return;` before changing the password, generating the
// access token or deleting the account. It asks the server whether a factor is set up and
// whether a fresh one still holds; if one is needed, <FreshFactorHost /> (mounted by the
// security card on /app/me, and by the channel list for a key's reveal) asks for a code or a passkey and resolves true once verified.
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field } from "@/components/ui/input";
import { api } from "@/lib/client/api";
import { toast } from "@/lib/client/toast";

export type TwoFactorStatus = { enabled: boolean; pending: boolean; backup_codes_remaining: number; passkey_count: number; fresh_until: number };

type Request = { status: TwoFactorStatus; resolve: (ok: boolean) => void };
let listener: ((r: Request) => void) | null = null;

export async function ensureFreshFactor(): Promise<boolean> {
  let status: TwoFactorStatus;
  try {
    status = (await api.get<TwoFactorStatus>("/api/user/2fa/status")).data;
  } catch {
    return false;
  }
  if (!status.enabled && status.passkey_count === 0) return true;
  // A margin of 30 seconds, so that the proof does not lapse on its way.
  if (status.fresh_until > Date.now() / 1000 + 30) return true;
  if (!listener) return false;
  return new Promise<boolean>((resolve) => listener!({ status, resolve }));
}

export const CODE_INPUT = /^(\d{6}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5})$/;

export function toastCodeFormat(message: string) {
  toast.error({ key: "errors.prefixed", values: { message } });
}

/** Signs the browser's passkey against options from begin, and posts it to finish. */
export async function passkeyAssertion(begin: string, finish: string): Promise<unknown> {
  const options = await api.post<PublicKeyCredentialRequestOptionsJSON>(begin);
  const response = await startAuthentication({ optionsJSON: options.data });
  return (await api.post(finish, { response })).data;
}

export function FreshFactorHost() {
  const t = useTranslations("twofa");
  const [request, setRequest] = useState<Request | null>(null);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    listener = (r) => {
      setCode("");
      setRequest(r);
    };
    return () => {
      listener = null;
    };
  }, []);
  const finish = (ok: boolean) => {
    request?.resolve(ok);
    setRequest(null);
    setBusy(false);
  };
  async function verifyCode() {
    if (!CODE_INPUT.test(code.trim())) return toastCodeFormat(t("codeFormat"));
    setBusy(true);
    try {
      await api.post("/api/user/2fa/verify", { code: code.trim() });
      finish(true);
    } catch {
      setBusy(false);
    }
  }
  async function verifyPasskey() {
    setBusy(true);
    try {
      await passkeyAssertion("/api/user/passkey/verify/begin", "/api/user/passkey/verify/finish");
      finish(true);
    } catch (err) {
      if (err instanceof Error && err.name === "NotAllowedError") toast.error({ key: "twofa.passkeyCancelled" });
      setBusy(false);
    }
  }
  const status = request?.status;
  return (
    <Dialog
      open={request !== null}
      onOpenChange={(o) => !o && finish(false)}
      title={t("freshTitle")}
      description={t("freshHelp")}
      footer={
        status?.enabled ? (
          <DialogActions cancel={t("cancel")} onCancel={() => finish(false)} action={t("verify")} onAction={verifyCode} busy={busy} />
        ) : undefined
      }
    >
      {status?.enabled && (
        <Field
          label={t("codeLabel")}
          hint={t("codeHint")}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          onKeyDown={(e) => e.key === "Enter" && void verifyCode()}
          autoComplete="one-time-code"
          inputMode="text"
          autoFocus
        />
      )}
      {status && status.passkey_count > 0 && (
        <Button variant="secondary" className="justify-center" disabled={busy} onClick={verifyPasskey}>
          {t("usePasskey")}
        </Button>
      )}
    </Dialog>
  );
}
