"use client";
import * as P from "@radix-ui/react-popover";
import { ChevronDown } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "./cn";

export type MultiOption = { value: string; label: ReactNode };

// A button that opens a list of checkboxes: filters with several values, column choice.
export function MultiSelect({
  label,
  options,
  value,
  onChange,
  className,
}: {
  label: string;
  options: MultiOption[];
  value: string[];
  onChange: (v: string[]) => void;
  className?: string;
}) {
  const toggle = (v: string) => onChange(value.includes(v) ? value.filter((x) => x !== v) : [...value, v]);
  return (
    <P.Root>
      <P.Trigger
        aria-label={label}
        className={cn(
          "inline-flex h-9 items-center gap-1.5 rounded-md border border-zinc-300 bg-white px-3 text-sm whitespace-nowrap text-zinc-800 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800",
          className,
        )}
      >
        {label}
        {value.length > 0 && <span className="rounded bg-blue-100 px-1.5 text-xs text-blue-800 dark:bg-blue-900/60 dark:text-blue-200">{value.length}</span>}
        <ChevronDown aria-hidden className="h-3.5 w-3.5 text-zinc-400" />
      </P.Trigger>
      <P.Portal>
        <P.Content
          align="start"
          sideOffset={4}
          className="z-50 max-h-80 min-w-48 overflow-y-auto rounded-md border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
        >
          {options.length === 0 && <div className="px-3 py-1.5 text-sm text-zinc-500">—</div>}
          {options.map((o) => (
            <label
              key={o.value}
              className="flex cursor-pointer items-center gap-2 rounded px-3 py-1.5 text-sm text-zinc-800 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800"
            >
              <input type="checkbox" className="h-4 w-4 accent-blue-600" checked={value.includes(o.value)} onChange={() => toggle(o.value)} />
              {o.label}
            </label>
          ))}
        </P.Content>
      </P.Portal>
    </P.Root>
  );
}
