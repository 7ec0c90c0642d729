"use client";
// A quota amount typed in the display unit (docs/console-ui.md, "Quota display"): the
// site's currency when it displays currency, else whole units. The value it holds and hands
// on is always the exact units as decimal text (what the API takes); the unit is a suffix and
// the conversion shows below as it is typed ("= 1,250,000 units" / "≈ $2.50"). Text that is
// not an amount is handed on as typed, so the form's units rule refuses it.
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState, type InputHTMLAttributes } from "react";
import { useQuotaDisplay } from "@/components/layout/providers";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import { formatCurrency, groupUnits, inputUnit, parseQuotaInput, quotaToInput, type QuotaDisplay } from "@/lib/quota-display";

// typed amounts are bounded by the form's rule, not here: a huge amount is handed on as its units
const NO_BOUND = BigInt(10) ** BigInt(40);

/** The input text for a units value: the display amount, or the text as it was when it is not units. */
function textOf(value: string, display: QuotaDisplay): string {
  return /^-?\d+$/.test(value.trim()) ? quotaToInput(BigInt(value.trim()), display) : value;
}

export type QuotaInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "type"> & {
  /** the units as decimal text ("" for none) */
  value: string;
  onChange: (units: string) => void;
  /** the display to type in (the site's by default) */
  display?: QuotaDisplay;
};

export function QuotaInput({ value, onChange, display: given, className, disabled, ...props }: QuotaInputProps) {
  const t = useTranslations("quotaInput");
  const site = useQuotaDisplay();
  const display = given ?? site;
  const key = `${display.displayInCurrency}|${display.quotaPerUnit}|${display.rate ?? 1}|${display.symbol ?? "$"}`;
  const [text, setText] = useState(() => textOf(value, display));
  // what this input last handed on: a value that differs came from outside (a reset, a preset)
  const handed = useRef({ value, key });
  useEffect(() => {
    if (handed.current.value !== value || handed.current.key !== key) {
      handed.current = { value, key };
      setText(textOf(value, display));
    }
  }, [value, key, display]);

  const parsed = parseQuotaInput(text, display, { allowNegative: true, max: NO_BOUND });
  const unit = inputUnit(display);
  const change = (next: string) => {
    setText(next);
    const r = parseQuotaInput(next, display, { allowNegative: true, max: NO_BOUND });
    const units = r.ok ? r.units.toString() : next.trim() === "" ? "" : next;
    handed.current = { value: units, key };
    onChange(units);
  };

  let conversion: string | null = null;
  if (parsed.ok) {
    conversion = display.displayInCurrency
      ? t("equalsUnits", { units: groupUnits(parsed.units) })
      : t("approx", { amount: formatCurrency(parsed.units, { ...display, displayInCurrency: true }) });
  }
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <Input
          type="text"
          inputMode="decimal"
          autoComplete="off"
          disabled={disabled}
          className={cn("w-full", className)}
          {...props}
          value={text}
          onChange={(e) => change(e.target.value)}
        />
        <span className="shrink-0 text-sm text-zinc-500 dark:text-zinc-400" data-quota-unit>
          {unit ?? t("units")}
        </span>
      </div>
      <p
        className={cn("text-xs", parsed.ok || parsed.error === "empty" ? "text-zinc-500 dark:text-zinc-400" : "text-amber-700 dark:text-amber-400")}
        data-quota-conversion
      >
        {parsed.ok ? conversion : parsed.error === "empty" ? "\u00a0" : t("invalid")}
      </p>
    </div>
  );
}
