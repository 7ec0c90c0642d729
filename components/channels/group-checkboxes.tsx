"use client";
// The groups a channel (or a tag's channels) serves: one checkbox per known group.
export function GroupCheckboxes({
  legend,
  groups,
  chosen,
  onChange,
  className = "",
}: {
  legend: string;
  groups: string[];
  chosen: string[];
  onChange: (next: string[]) => void;
  className?: string;
}) {
  return (
    <fieldset className={`flex flex-col gap-1 ${className}`}>
      <legend className="mb-1 text-sm font-medium text-zinc-700 dark:text-zinc-300">{legend}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {groups.map((g) => (
          <label key={g} className="inline-flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              className="h-4 w-4 accent-blue-600"
              checked={chosen.includes(g)}
              onChange={() => onChange(chosen.includes(g) ? chosen.filter((x) => x !== g) : [...chosen, g])}
            />
            {g}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
