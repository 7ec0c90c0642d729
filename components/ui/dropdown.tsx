"use client";
import * as M from "@radix-ui/react-dropdown-menu";
import type { ReactNode } from "react";

export function Dropdown({ trigger, children, label }: { trigger: ReactNode; children: ReactNode; label?: string }) {
  return (
    <M.Root modal={false}>
      <M.Trigger asChild aria-label={label}>
        {trigger}
      </M.Trigger>
      <M.Portal>
        <M.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-40 rounded-md border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
        >
          {children}
        </M.Content>
      </M.Portal>
    </M.Root>
  );
}

export function DropdownItem({ children, onSelect }: { children: ReactNode; onSelect: () => void }) {
  return (
    <M.Item
      onSelect={onSelect}
      className="flex cursor-pointer items-center gap-2 rounded px-3 py-1.5 text-sm text-zinc-800 outline-none data-[highlighted]:bg-zinc-100 dark:text-zinc-200 dark:data-[highlighted]:bg-zinc-800"
    >
      {children}
    </M.Item>
  );
}

export function DropdownLabel({ children }: { children: ReactNode }) {
  return <M.Label className="px-3 py-1.5 text-xs text-zinc-500 dark:text-zinc-400">{children}</M.Label>;
}

export function DropdownSeparator() {
  return <M.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-700" />;
}
