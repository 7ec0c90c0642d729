import { useId, type ReactNode } from "react";

export type RadioOption<T extends string> = { value: T; label: ReactNode };

// A row of native radio buttons inside a fieldset (keyboard and screen readers for free).
export function RadioGroup<T extends string>({
  legend,
  value,
  options,
  onChange,
}: {
  legend: ReactNode;
  value: T;
  options: RadioOption<T>[];
  onChange: (v: T) => void;
}) {
  const name = useId();
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="mb-1 text-sm font-medium text-zinc-700 dark:text-zinc-300">{legend}</legend>
      <div className="flex flex-wrap gap-x-5 gap-y-2">
        {options.map((o) => (
          <label key={o.value} className="inline-flex cursor-pointer items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              className="h-4 w-4 accent-blue-600"
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
