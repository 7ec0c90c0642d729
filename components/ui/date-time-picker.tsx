"use client";
// A date-time picker (docs/console-ui.md, "Date-time picker"): a button showing the chosen time
// ("YYYY-MM-DD HH:mm:ss", browser time zone) that opens a calendar (react-day-picker, localised
// by date-fns through react-day-picker/locale) with hour / minute / second fields, "now",
// "clear" and "done". `DateTimePicker` holds a Date; `UnixTimePicker` unix seconds.
import * as P from "@radix-ui/react-popover";
import { CalendarClock, X } from "lucide-react";
import { useLocale, useTranslations } from "next-intl";
import dynamic from "next/dynamic";
import { useId, useState, type ReactNode } from "react";
import { formatDateTime, fromUnixSeconds, toUnixSeconds, withDay, withTimePart } from "@/lib/client/date-time";
import { Button } from "./button";
import { cn } from "./cn";

// The calendar (react-day-picker and date-fns' locales, about 24 kB gzipped) is a chunk of its
// own, fetched when a picker is first pointed at or opened (docs/console-ui.md, "Page weight");
// until it arrives the panel keeps the calendar's size.
const Calendar = dynamic(() => import("./date-time-calendar").then((m) => m.Calendar), {
  ssr: false,
  loading: () => <div className="h-[300px] w-[252px]" aria-hidden />,
});
const prefetchCalendar = () => void import("./date-time-calendar");

function TimeField({ label, value, max, onChange }: { label: string; value: number; max: number; onChange: (n: number) => void }) {
  return (
    <label className="flex flex-col gap-1 text-xs text-zinc-500 dark:text-zinc-400">
      {label}
      <input
        type="number"
        inputMode="numeric"
        min={0}
        max={max}
        value={String(value).padStart(2, "0")}
        onChange={(e) => {
          const n = Number(e.target.value);
          if (Number.isInteger(n)) onChange(n);
        }}
        className="h-8 w-14 rounded-md border border-zinc-300 bg-white px-2 text-sm text-zinc-900 outline-none focus:border-blue-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      />
    </label>
  );
}

export type DateTimePickerProps = {
  value: Date | null;
  onChange: (value: Date | null) => void;
  // The accessible name of the button (and its visible label when `showLabel`).
  label: string;
  placeholder?: string;
  // false: no clear button (a value is required).
  clearable?: boolean;
  id?: string;
  className?: string;
};

export function DateTimePicker({ value, onChange, label, placeholder, clearable = true, id, className }: DateTimePickerProps) {
  const t = useTranslations("dateTimePicker");
  const locale = useLocale();
  const [open, setOpen] = useState(false);
  const [month, setMonth] = useState<Date>(value ?? new Date());
  const base = value ?? new Date(new Date().setHours(0, 0, 0, 0));
  return (
    <P.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) setMonth(value ?? new Date());
      }}
    >
      <div className={cn("relative flex w-full items-center", className)}>
        <P.Trigger
          id={id}
          aria-label={label}
          onPointerEnter={prefetchCalendar}
          onFocus={prefetchCalendar}
          className={cn(
            "flex h-9 w-full items-center gap-2 rounded-md border border-zinc-300 bg-white pr-8 pl-3 text-left text-sm outline-none focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 dark:border-zinc-700 dark:bg-zinc-900",
            value ? "text-zinc-900 dark:text-zinc-100" : "text-zinc-400 dark:text-zinc-500",
          )}
        >
          <CalendarClock aria-hidden className="h-4 w-4 shrink-0 text-zinc-500" />
          <span className="truncate tabular-nums">{value ? formatDateTime(value) : (placeholder ?? t("placeholder"))}</span>
        </P.Trigger>
        {clearable && value && (
          <button
            type="button"
            aria-label={t("clearLabel", { label })}
            onClick={() => onChange(null)}
            className="absolute right-1.5 inline-flex h-6 w-6 items-center justify-center rounded text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700 dark:hover:bg-zinc-800 dark:hover:text-zinc-200"
          >
            <X aria-hidden className="h-3.5 w-3.5" />
          </button>
        )}
      </div>
      <P.Portal>
        <P.Content
          align="start"
          sideOffset={4}
          aria-label={label}
          className="z-50 rounded-lg border border-zinc-200 bg-white p-3 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
        >
          <Calendar locale={locale} month={month} onMonthChange={setMonth} selected={value} onSelect={(day) => onChange(withDay(day, base))} />
          <div className="mt-2 flex items-end gap-2 border-t border-zinc-200 pt-3 dark:border-zinc-700">
            <TimeField label={t("hour")} value={base.getHours()} max={23} onChange={(v) => onChange(withTimePart(base, "hour", v))} />
            <TimeField label={t("minute")} value={base.getMinutes()} max={59} onChange={(v) => onChange(withTimePart(base, "minute", v))} />
            <TimeField label={t("second")} value={base.getSeconds()} max={59} onChange={(v) => onChange(withTimePart(base, "second", v))} />
          </div>
          <div className="mt-3 flex justify-between gap-2">
            <div className="flex gap-1">
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  const now = new Date();
                  now.setMilliseconds(0);
                  onChange(now);
                  setMonth(now);
                }}
              >
                {t("now")}
              </Button>
              {clearable && (
                <Button size="sm" variant="ghost" onClick={() => onChange(null)}>
                  {t("clear")}
                </Button>
              )}
            </div>
            <Button size="sm" onClick={() => setOpen(false)}>
              {t("done")}
            </Button>
          </div>
        </P.Content>
      </P.Portal>
    </P.Root>
  );
}

// The same picker on unix seconds (the API's timestamps); null when cleared.
export function UnixTimePicker({
  value,
  onChange,
  ...rest
}: Omit<DateTimePickerProps, "value" | "onChange"> & { value: number | null; onChange: (v: number | null) => void }) {
  return <DateTimePicker value={fromUnixSeconds(value)} onChange={(d) => onChange(toUnixSeconds(d))} {...rest} />;
}

// A picker with its visible label above, laid out like components/ui/input.tsx's Field.
export function DateTimeField({ label, children }: { label: ReactNode; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
        {label}
      </label>
      {children(id)}
    </div>
  );
}
