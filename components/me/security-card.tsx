"use client";
// The security card of /app/me (docs/two-factor.md): two-factor authentication (set up with a
// QR code and a first code, ten backup codes shown once, new backup codes, turn off with a
// code) and passkeys (add, list, remove). It also mounts the fresh-factor dialog that the
// sensitive actions of the account card await.
import { browserSupportsWebAuthn, startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import useSWR from "swr";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field } from "@/components/ui/input";
import { useStatus } from "@/components/layout/providers";
import { api, fetchData } from "@/lib/client/api";
import { copyText } from "@/lib/client/clipboard";
import { formatTimestamp } from "@/lib/client/format";
import { toast } from "@/lib/client/toast";
import { CODE_INPUT, ensureFreshFactor, FreshFactorHost, toastCodeFormat, type TwoFactorStatus } from "./fresh-factor";

type Setup = { secret: string; qr_code_data: string; backup_codes: string[] };
type Passkey = { id: number; name: string; created_at: number; last_used_at: number };

function BackupCodesDialog({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  const t = useTranslations("twofa");
  const text = (codes ?? []).join("\n");
  return (
    <Dialog
      open={codes !== null}
      onOpenChange={(o) => !o && onClose()}
      title={t("backupTitle")}
      description={t("backupHelp")}
      footer={
        <>
          <Button variant="secondary" onClick={() => void copyText(text, "twofa.copied")}>
            {t("copy")}
          </Button>
          <Button onClick={onClose}>{t("saved")}</Button>
        </>
      }
    >
      <ul className="grid grid-cols-2 gap-2 rounded-md bg-zinc-50 p-3 font-mono text-sm dark:bg-zinc-900" aria-label={t("backupTitle")}>
        {(codes ?? []).map((c) => (
          <li key={c} className="text-center text-zinc-900 dark:text-zinc-100">
            {c}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}

// Setup: the QR code of the otpauth URI, the secret for manual entry, and the first code.
function SetupDialog({ setup, onClose, onEnabled }: { setup: Setup | null; onClose: () => void; onEnabled: (codes: string[]) => void }) {
  const t = useTranslations("twofa");
  const [qr, setQr] = useState("");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setCode("");
    // qrcode is fetched only when a 2FA setup shows its code (docs/console-ui.md, "Page weight")
    if (setup) void import("qrcode").then((m) => m.default.toDataURL(setup.qr_code_data, { margin: 1, width: 200 })).then(setQr);
    else setQr("");
  }, [setup]);
  async function enable() {
    if (!setup) return;
    if (!/^\d{6}$/.test(code.trim())) return toastCodeFormat(t("firstCodeFormat"));
    setBusy(true);
    try {
      const r = await api.post("/api/user/2fa/enable", { code: code.trim() });
      toast.success({ text: r.message });
      onEnabled(setup.backup_codes);
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog
      open={setup !== null}
      onOpenChange={(o) => !o && onClose()}
      title={t("setupTitle")}
      description={t("setupHelp")}
      footer={<DialogActions cancel={t("cancel")} onCancel={onClose} action={t("enable")} onAction={enable} busy={busy} />}
    >
      <div className="flex flex-col items-center gap-3">
        {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL drawn in the browser */}
        {qr && <img src={qr} alt={t("qrAlt")} width={200} height={200} className="rounded bg-white p-1" />}
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{t("manualEntry")}</p>
        <code className="rounded bg-zinc-100 px-2 py-1 font-mono text-sm break-all text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100">{setup?.secret}</code>
      </div>
      <Field
        label={t("firstCode")}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && void enable()}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
      />
    </Dialog>
  );
}

// A dialog that asks for a code and posts it (turn off, new backup codes).
function CodeDialog({
  open,
  title,
  help,
  action,
  danger,
  onClose,
  onSubmit,
}: {
  open: boolean;
  title: string;
  help: string;
  action: string;
  danger?: boolean;
  onClose: () => void;
  onSubmit: (code: string) => Promise<void>;
}) {
  const t = useTranslations("twofa");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => setCode(""), [open]);
  async function submit() {
    if (!CODE_INPUT.test(code.trim())) return toastCodeFormat(t("codeFormat"));
    setBusy(true);
    try {
      await onSubmit(code.trim());
    } catch {
      // reported by the API helper
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={title}
      description={help}
      footer={<DialogActions cancel={t("cancel")} onCancel={onClose} action={action} onAction={submit} busy={busy} danger={danger} />}
    >
      <Field
        label={t("codeLabel")}
        hint={t("codeHint")}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && void submit()}
        autoComplete="one-time-code"
      />
    </Dialog>
  );
}

function TwoFactorSection({ status, reload }: { status: TwoFactorStatus; reload: () => void }) {
  const t = useTranslations("twofa");
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [dialog, setDialog] = useState<"disable" | "regenerate" | null>(null);
  async function start() {
    if (!(await ensureFreshFactor())) return;
    try {
      setSetup((await api.post<Setup>("/api/user/2fa/setup")).data);
    } catch {
      // reported by the API helper
    }
  }
  return (
    <section className="flex flex-col gap-3" aria-label={t("totpTitle")}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-col gap-1">
          <h3 className="flex items-center gap-2 font-medium text-zinc-900 dark:text-zinc-100">
            {t("totpTitle")}
            <Badge color={status.enabled ? "green" : "gray"}>{status.enabled ? t("on") : t("off")}</Badge>
          </h3>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {status.enabled ? t("backupLeft", { count: status.backup_codes_remaining }) : t("totpHelp")}
          </p>
        </div>
        <div className="flex gap-2">
          {status.enabled ? (
            <>
              <Button variant="secondary" onClick={() => setDialog("regenerate")}>
                {t("regenerate")}
              </Button>
              <Button variant="danger" onClick={() => setDialog("disable")}>
                {t("disable")}
              </Button>
            </>
          ) : (
            <Button onClick={start}>{t("setup")}</Button>
          )}
        </div>
      </div>
      <SetupDialog
        setup={setup}
        onClose={() => {
          setSetup(null);
          reload();
        }}
        onEnabled={(c) => {
          setSetup(null);
          setCodes(c);
          reload();
        }}
      />
      <BackupCodesDialog codes={codes} onClose={() => setCodes(null)} />
      <CodeDialog
        open={dialog === "disable"}
        title={t("disableTitle")}
        help={t("disableHelp")}
        action={t("disable")}
        danger
        onClose={() => setDialog(null)}
        onSubmit={async (code) => {
          const r = await api.post("/api/user/2fa/disable", { code });
          toast.success({ text: r.message });
          setDialog(null);
          reload();
        }}
      />
      <CodeDialog
        open={dialog === "regenerate"}
        title={t("regenerateTitle")}
        help={t("regenerateHelp")}
        action={t("regenerate")}
        onClose={() => setDialog(null)}
        onSubmit={async (code) => {
          const r = await api.post<{ backup_codes: string[] }>("/api/user/2fa/backup_codes", { code });
          setDialog(null);
          setCodes(r.data.backup_codes);
          reload();
        }}
      />
    </section>
  );
}

function PasskeySection({ reload }: { reload: () => void }) {
  const t = useTranslations("twofa");
  const { data: passkeys, mutate } = useSWR<Passkey[]>("/api/user/passkey", fetchData);
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [supported, setSupported] = useState(true);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);
  async function add() {
    if (name.trim().length > 64) return toastCodeFormat(t("nameTooLong"));
    if (!(await ensureFreshFactor())) return;
    setBusy(true);
    try {
      const options = await api.post<PublicKeyCredentialCreationOptionsJSON>("/api/user/passkey/register/begin");
      const response = await startRegistration({ optionsJSON: options.data });
      await api.post("/api/user/passkey/register/finish", { name: name.trim(), response });
      toast.success({ key: "twofa.passkeyAdded" });
      setAdding(false);
      setName("");
      void mutate();
      reload();
    } catch (err) {
      if (err instanceof Error && (err.name === "NotAllowedError" || err.name === "AbortError")) toast.error({ key: "twofa.passkeyCancelled" });
      else if (err instanceof Error && err.name === "InvalidStateError") toast.error({ key: "twofa.passkeyExists" });
    } finally {
      setBusy(false);
    }
  }
  async function remove(p: Passkey) {
    if (!(await ensureFreshFactor())) return;
    try {
      await api.del(`/api/user/passkey/${p.id}`);
      toast.success({ key: "twofa.passkeyRemoved" });
      void mutate();
      reload();
    } catch {
      // reported by the API helper
    }
  }
  return (
    <section className="flex flex-col gap-3 border-t border-zinc-100 pt-4 dark:border-zinc-800" aria-label={t("passkeysTitle")}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-col gap-1">
          <h3 className="font-medium text-zinc-900 dark:text-zinc-100">{t("passkeysTitle")}</h3>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{supported ? t("passkeysHelp") : t("passkeysUnsupported")}</p>
        </div>
        <Button variant="secondary" disabled={!supported} onClick={() => setAdding(true)}>
          {t("addPasskey")}
        </Button>
      </div>
      {passkeys && passkeys.length === 0 && <p className="text-sm text-zinc-500 dark:text-zinc-400">{t("noPasskeys")}</p>}
      {passkeys && passkeys.length > 0 && (
        <ul className="flex flex-col divide-y divide-zinc-100 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {passkeys.map((p) => (
            <li key={p.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
              <div className="flex min-w-0 flex-col">
                <span className="truncate font-medium text-zinc-900 dark:text-zinc-100">{p.name}</span>
                <span className="text-xs text-zinc-500 dark:text-zinc-400">
                  {t("createdAt", { time: formatTimestamp(p.created_at) })} ·{" "}
                  {p.last_used_at ? t("lastUsed", { time: formatTimestamp(p.last_used_at) }) : t("neverUsed")}
                </span>
              </div>
              <Button variant="ghost" size="sm" onClick={() => void remove(p)} aria-label={t("removePasskeyNamed", { name: p.name })}>
                {t("remove")}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Dialog
        open={adding}
        onOpenChange={setAdding}
        title={t("addPasskey")}
        description={t("addPasskeyHelp")}
        footer={<DialogActions cancel={t("cancel")} onCancel={() => setAdding(false)} action={t("continue")} onAction={add} busy={busy} />}
      >
        <Field label={t("passkeyName")} placeholder={t("passkeyNamePlaceholder")} value={name} onChange={(e) => setName(e.target.value)} maxLength={64} />
      </Dialog>
    </section>
  );
}

export function SecurityCard() {
  const t = useTranslations("twofa");
  const { data: status, mutate } = useSWR<TwoFactorStatus>("/api/user/2fa/status", fetchData);
  const site = useStatus();
  const reload = () => void mutate();
  return (
    <Card title={t("title")}>
      <div className="flex flex-col gap-4">
        {status ? <TwoFactorSection status={status} reload={reload} /> : <p className="text-sm text-zinc-500">{t("loading")}</p>}
        {site.server_address ? <PasskeySection reload={reload} /> : <p className="text-sm text-zinc-500 dark:text-zinc-400">{t("passkeysNeedAddress")}</p>}
      </div>
      <FreshFactorHost />
    </Card>
  );
}
