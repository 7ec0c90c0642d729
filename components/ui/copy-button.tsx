"use client";
// A small icon button that copies a text (a playground reply, a code block, an API example)
// and says so in a toast (the message key `successKey`).
import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { copyText } from "@/lib/client/clipboard";

export function CopyButton({ label, text, successKey, className }: { label: string; text: () => string; successKey: string; className?: string }) {
  const [done, setDone] = useState(false);
  async function copy() {
    if (!(await copyText(text(), successKey))) return;
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  }
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={copy}
      className={cn(
        "inline-flex h-7 w-7 items-center justify-center rounded-md border border-zinc-200 bg-white/90 text-zinc-600 hover:bg-zinc-50 hover:text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900/90 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-zinc-100",
        className,
      )}
    >
      {done ? <Check className="h-3.5 w-3.5" aria-hidden /> : <Copy className="h-3.5 w-3.5" aria-hidden />}
    </button>
  );
}
