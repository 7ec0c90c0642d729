"use client";
// A confirmation dialog awaited as a promise: `const ok = await ask()` resolves true on
// confirm, false on cancel or dismissal (the caller then leaves the control as it was).
import { useTranslations } from "next-intl";
import { useCallback, useRef, useState, type ReactNode } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";

export function useConfirm({
  title,
  description,
  action,
  danger = false,
}: {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  danger?: boolean;
}) {
  const t = useTranslations("settingsKit");
  const [open, setOpen] = useState(false);
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  const ask = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        resolver.current = resolve;
        setOpen(true);
      }),
    [],
  );
  const finish = (ok: boolean) => {
    setOpen(false);
    resolver.current?.(ok);
    resolver.current = null;
  };
  const dialog = (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && finish(false)}
      title={title}
      description={description}
      footer={
        <DialogActions cancel={t("cancel")} onCancel={() => finish(false)} action={action ?? t("confirm")} onAction={() => finish(true)} danger={danger} />
      }
    />
  );
  return { ask, dialog };
}
