"use client";
// A scrolling list of model names with a checkbox each (the channel editor's model picker,
// the plan drawer's models): `chosen` are ticked, a click toggles one.
export function ModelChecklist({
  shown,
  chosen,
  onChange,
  empty,
  className,
  testId,
}: {
  shown: string[];
  chosen: string[];
  onChange: (next: string[]) => void;
  empty: string;
  className: string;
  testId: string;
}) {
  return (
    <div className={className} data-testid={testId}>
      {shown.length === 0 && <p className="p-2 text-sm text-zinc-500">{empty}</p>}
      {shown.map((m) => (
        <label key={m} className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800">
          <input
            type="checkbox"
            className="h-4 w-4 accent-blue-600"
            checked={chosen.includes(m)}
            onChange={() => onChange(chosen.includes(m) ? chosen.filter((x) => x !== m) : [...chosen, m])}
          />
          <span className="font-mono text-xs text-zinc-800 dark:text-zinc-200">{m}</span>
        </label>
      ))}
    </div>
  );
}
