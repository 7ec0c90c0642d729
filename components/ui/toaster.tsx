"use client";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { dismissToast, subscribeToasts, type Toast } from "@/lib/client/toast";
import { cn } from "./cn";

const TONES = {
  success: "border-green-300 bg-green-50 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-200",
  error: "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200",
  info: "border-blue-300 bg-blue-50 text-blue-900 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-200",
  warning: "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200",
};

export function Toaster() {
  const t = useTranslations();
  const [toasts, setToasts] = useState<Toast[]>([]);
  useEffect(() => subscribeToasts(setToasts), []);
  return (
    // Top centre, over the top bar's middle: never over a page's primary actions (the title
    // row's buttons, a form's save button or the settings' sticky save bar), docs/console-ui.md.
    <div
      aria-live="polite"
      data-testid="toaster"
      className="pointer-events-none fixed top-2 left-1/2 z-[60] flex w-80 max-w-[calc(100vw-1rem)] -translate-x-1/2 flex-col gap-2"
    >
      {toasts.map((item) => (
        <div
          key={item.id}
          role={item.kind === "error" ? "alert" : "status"}
          data-toast={item.kind}
          onClick={() => dismissToast(item.id)}
          className={cn("pointer-events-auto cursor-pointer rounded-md border px-4 py-2.5 text-sm shadow-md", TONES[item.kind])}
        >
          {"text" in item.content ? item.content.text : t(item.content.key, item.content.values)}
        </div>
      ))}
    </div>
  );
}
