"use client";
// The playground's searchable model choice: an input that filters the usable models
// (fuzzy, as on the pricing page) and a list to pick one from. Only a listed model can be
// chosen; leaving the field puts the chosen one back.
import { useId, useState, type KeyboardEvent } from "react";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import { fuzzyMatch } from "@/lib/client/prices";

export function ModelPicker({
  label,
  models,
  value,
  onChange,
  placeholder,
  emptyText,
}: {
  label: string;
  models: string[];
  value: string;
  onChange: (model: string) => void;
  placeholder: string;
  emptyText: string;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const shown = models.filter((m) => fuzzyMatch(m, query));

  function pick(m: string) {
    onChange(m);
    setOpen(false);
    setQuery("");
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!open) setOpen(true);
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((a) => (shown.length ? (a + step + shown.length) % shown.length : 0));
    } else if (e.key === "Enter" && open) {
      e.preventDefault();
      if (shown[active]) pick(shown[active]);
    } else if (e.key === "Escape" && open) {
      e.preventDefault();
      setOpen(false);
      setQuery("");
    }
  }

  return (
    <div className="relative flex flex-col gap-1">
      <label htmlFor={`${id}-input`} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
        {label}
      </label>
      <Input
        id={`${id}-input`}
        role="combobox"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={open && shown[active] ? `${id}-opt-${active}` : undefined}
        autoComplete="off"
        className="w-full"
        value={open ? query : value}
        placeholder={open ? value || placeholder : placeholder}
        onFocus={() => {
          setOpen(true);
          setActive(Math.max(0, models.indexOf(value)));
        }}
        onClick={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          setQuery("");
        }}
        onChange={(e) => {
          setOpen(true);
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      {open && (
        <ul
          id={`${id}-list`}
          role="listbox"
          aria-label={label}
          className="absolute top-full right-0 left-0 z-20 mt-1 max-h-64 overflow-y-auto rounded-md border border-zinc-200 bg-white py-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
        >
          {shown.length === 0 && <li className="px-3 py-2 text-sm text-zinc-500 dark:text-zinc-400">{emptyText}</li>}
          {shown.map((m, i) => (
            <li
              key={m}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={m === value}
              // mousedown, not click: the input keeps focus, so its blur does not close the list first
              onMouseDown={(e) => {
                e.preventDefault();
                pick(m);
              }}
              onMouseEnter={() => setActive(i)}
              className={cn(
                "cursor-pointer truncate px-3 py-1.5 font-mono text-sm",
                i === active && "bg-blue-50 dark:bg-blue-950/60",
                m === value ? "font-semibold text-blue-700 dark:text-blue-300" : "text-zinc-800 dark:text-zinc-200",
              )}
            >
              {m}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
