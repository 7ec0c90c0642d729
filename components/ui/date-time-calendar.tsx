"use client";
// The month grid of the date-time picker (./date-time-picker.tsx), loaded on demand:
// react-day-picker, localised by date-fns through react-day-picker/locale (the console's eight
// languages).
import { ChevronLeft, ChevronRight } from "lucide-react";
import { DayPicker } from "react-day-picker";
import { enUS, es, fr, ja, ru, vi, zhCN, zhTW, type Locale as DayLocale } from "react-day-picker/locale";
import { toLocale, type Locale } from "@/lib/i18n/locale";

const DAY_LOCALES: Record<Locale, DayLocale> = { zh: zhCN, "zh-TW": zhTW, en: enUS, ja, fr, ru, vi, es };

// The calendar in the console's colours (no react-day-picker stylesheet: light and dark from Tailwind).
const CALENDAR_CLASSES = {
  root: "relative text-sm text-zinc-900 dark:text-zinc-100",
  months: "flex flex-col",
  month: "flex flex-col gap-2",
  month_caption: "flex h-8 items-center justify-center font-medium",
  caption_label: "text-sm font-medium",
  nav: "absolute inset-x-0 top-0 flex h-8 items-center justify-between",
  button_previous: "inline-flex h-8 w-8 items-center justify-center rounded-md hover:bg-zinc-100 disabled:opacity-40 dark:hover:bg-zinc-800",
  button_next: "inline-flex h-8 w-8 items-center justify-center rounded-md hover:bg-zinc-100 disabled:opacity-40 dark:hover:bg-zinc-800",
  month_grid: "w-full border-collapse",
  weekdays: "",
  weekday: "h-8 w-9 text-center text-xs font-normal text-zinc-500 dark:text-zinc-400",
  weeks: "",
  week: "",
  day: "h-9 w-9 p-0 text-center",
  day_button:
    "inline-flex h-8 w-8 items-center justify-center rounded-md hover:bg-zinc-100 focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:outline-none dark:hover:bg-zinc-800",
  selected: "[&>button]:bg-blue-600 [&>button]:text-white [&>button]:hover:bg-blue-700",
  today: "font-semibold text-blue-700 dark:text-blue-400",
  outside: "text-zinc-400 dark:text-zinc-600",
  disabled: "opacity-40",
  hidden: "invisible",
};

export function Calendar({
  locale,
  month,
  onMonthChange,
  selected,
  onSelect,
}: {
  locale: string;
  month: Date;
  onMonthChange: (month: Date) => void;
  selected: Date | null;
  onSelect: (day: Date) => void;
}) {
  return (
    <DayPicker
      mode="single"
      locale={DAY_LOCALES[toLocale(locale)]}
      month={month}
      onMonthChange={onMonthChange}
      selected={selected ?? undefined}
      onSelect={(day) => {
        if (day) onSelect(day);
      }}
      classNames={CALENDAR_CLASSES}
      components={{ Chevron: ({ orientation }) => (orientation === "left" ? <ChevronLeft className="h-4 w-4" /> : <ChevronRight className="h-4 w-4" />) }}
    />
  );
}
