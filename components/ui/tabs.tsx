"use client";
import * as T from "@radix-ui/react-tabs";
import type { ReactNode } from "react";

export type TabItem = { value: string; label: ReactNode; content: ReactNode };

// Uncontrolled with `defaultValue`; controlled when `value` (and `onValueChange`) are given.
export function Tabs({
  items,
  defaultValue,
  value,
  onValueChange,
}: {
  items: TabItem[];
  defaultValue?: string;
  value?: string;
  onValueChange?: (value: string) => void;
}) {
  return (
    <T.Root
      defaultValue={value === undefined ? (defaultValue ?? items[0]?.value) : undefined}
      value={value}
      onValueChange={onValueChange}
      className="flex flex-col gap-4"
    >
      <T.List className="flex gap-1 border-b border-zinc-200 dark:border-zinc-800">
        {items.map((i) => (
          <T.Trigger
            key={i.value}
            value={i.value}
            className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm text-zinc-600 hover:text-zinc-900 data-[state=active]:border-blue-600 data-[state=active]:font-medium data-[state=active]:text-blue-700 dark:text-zinc-400 dark:hover:text-zinc-100 dark:data-[state=active]:text-blue-400"
          >
            {i.label}
          </T.Trigger>
        ))}
      </T.List>
      {items.map((i) => (
        <T.Content key={i.value} value={i.value} forceMount className="data-[state=inactive]:hidden">
          {i.content}
        </T.Content>
      ))}
    </T.Root>
  );
}
