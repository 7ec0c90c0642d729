import { useId, type ReactNode } from "react";
import { cn } from "./cn";

// An on/off switch with its label (role="switch", so tests and screen readers see its state).
export function Switch({
  checked,
  onChange,
  label,
  hint,
  disabled,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
  label: ReactNode;
  hint?: ReactNode;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    // The switch and the label's first line are both 20 px high and top-aligned, so the label
    // sits beside the switch (a hint goes on the lines below the label, not the switch).
    <div className="flex items-start gap-3">
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={cn(
          "relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors disabled:opacity-50",
          checked ? "bg-blue-600" : "bg-zinc-300 dark:bg-zinc-600",
        )}
      >
        <span className={cn("inline-block h-4 w-4 rounded-full bg-white shadow transition-transform", checked ? "translate-x-4.5" : "translate-x-0.5")} />
      </button>
      <label htmlFor={id} className="flex cursor-pointer flex-col text-sm leading-5 text-zinc-800 dark:text-zinc-200">
        {label}
        {hint && <span className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</span>}
      </label>
    </div>
  );
}
