// Joins class names, skipping the falsy ones. A later size, spacing or white-space utility replaces an
// earlier one of the same kind (same variants): a primitive's `h-9 w-full` and a caller's
// `h-8 w-auto` would otherwise both be in the list, and Tailwind's stylesheet order, not
// the caller, would decide (w-full and h-9 come later in it, so they won).
const GROUPS = [
  "min-w",
  "max-w",
  "min-h",
  "max-h",
  "w",
  "h",
  "size",
  "px",
  "py",
  "pt",
  "pr",
  "pb",
  "pl",
  "p",
  "mx",
  "my",
  "mt",
  "mr",
  "mb",
  "ml",
  "m",
  "gap-x",
  "gap-y",
  "gap",
  "whitespace",
];

// "md:hover:-mt-2" -> "md:hover:|mt"; null for classes outside the groups above.
function groupOf(cls: string): string | null {
  const cut = cls.lastIndexOf(":");
  const variants = cls.slice(0, cut + 1);
  const util = cls
    .slice(cut + 1)
    .replace(/^!/, "")
    .replace(/^-/, "");
  for (const g of GROUPS) if (util.startsWith(g + "-")) return variants + "|" + g;
  return null;
}

export function cn(...parts: (string | false | null | undefined)[]): string {
  const classes = parts.filter(Boolean).join(" ").split(/\s+/).filter(Boolean);
  const lastOfGroup = new Map<string, number>();
  classes.forEach((c, i) => {
    const g = groupOf(c);
    if (g) lastOfGroup.set(g, i);
  });
  return classes
    .filter((c, i) => {
      const g = groupOf(c);
      return g === null || lastOfGroup.get(g) === i;
    })
    .join(" ");
}
