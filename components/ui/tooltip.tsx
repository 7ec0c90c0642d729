"use client";
import * as T from "@radix-ui/react-tooltip";
import type { ReactNode } from "react";

// A hover/focus hint over its trigger (the trigger must accept a ref: a native element).
export function Tooltip({ content, children }: { content: ReactNode; children: ReactNode }) {
  return (
    <T.Provider delayDuration={200}>
      <T.Root>
        <T.Trigger asChild>{children}</T.Trigger>
        <T.Portal>
          <T.Content sideOffset={4} className="z-50 max-w-xs rounded-md bg-zinc-900 px-3 py-2 text-xs text-white shadow-lg dark:bg-zinc-700">
            {content}
            <T.Arrow className="fill-zinc-900 dark:fill-zinc-700" />
          </T.Content>
        </T.Portal>
      </T.Root>
    </T.Provider>
  );
}
