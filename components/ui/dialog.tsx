"use client";
import * as D from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Button } from "./button";
import { cn } from "./cn";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  // Extra classes of the panel (a wider dialog: "w-[min(72rem,96vw)]").
  className?: string;
};

const OVERLAY = "fixed inset-0 z-40 bg-black/40";

// A centred modal dialog. Every dialog and drawer has a close button (an X labelled "Close
// dialog") besides Escape and a click on the overlay (docs/console-ui.md, "Dialogs and toasts").
export function Dialog({ open, onOpenChange, title, description, children, footer, className }: Props) {
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className={OVERLAY} />
        <D.Content
          className={cn(
            "fixed top-1/2 left-1/2 z-50 flex max-h-[90vh] w-[min(32rem,92vw)] -translate-x-1/2 -translate-y-1/2 flex-col gap-4 overflow-y-auto rounded-lg bg-white p-6 shadow-xl dark:bg-zinc-900",
            className,
          )}
        >
          <Header title={title} description={description} />
          {children}
          {footer && <div className="flex justify-end gap-2">{footer}</div>}
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

// A panel that slides in from the right: the add and edit forms of admin lists.
export function Drawer({ open, onOpenChange, title, description, children, footer }: Props) {
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className={OVERLAY} />
        <D.Content className="fixed top-0 right-0 z-50 flex h-full w-[min(30rem,100vw)] flex-col bg-white shadow-xl dark:bg-zinc-900">
          <div className="border-b border-zinc-200 px-6 py-4 dark:border-zinc-800">
            <Header title={title} description={description} />
          </div>
          <div className="flex-1 overflow-y-auto px-6 py-4">{children}</div>
          {footer && <div className="flex justify-end gap-2 border-t border-zinc-200 px-6 py-3 dark:border-zinc-800">{footer}</div>}
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

// The usual footer: cancel, then the action (red when it destroys something).
export function DialogActions({
  cancel,
  onCancel,
  action,
  onAction,
  busy = false,
  danger = false,
}: {
  cancel: ReactNode;
  onCancel: () => void;
  action: ReactNode;
  onAction: () => void;
  busy?: boolean;
  danger?: boolean;
}) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel}>
        {cancel}
      </Button>
      <Button variant={danger ? "danger" : "primary"} disabled={busy} onClick={onAction}>
        {action}
      </Button>
    </>
  );
}

function Header({ title, description }: { title: ReactNode; description?: ReactNode }) {
  const t = useTranslations("common");
  return (
    <div className="flex items-start gap-3">
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <D.Title className="text-lg font-semibold text-zinc-900 dark:text-zinc-100">{title}</D.Title>
        <D.Description className={cn("text-sm text-zinc-500 dark:text-zinc-400", !description && "sr-only")}>{description ?? title}</D.Description>
      </div>
      <D.Close
        aria-label={t("closeDialog")}
        title={t("closeDialog")}
        className="-mt-1 -mr-2 inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:outline-none dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
      >
        <X aria-hidden className="h-4 w-4" />
      </D.Close>
    </div>
  );
}
