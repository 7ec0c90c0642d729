// Comma lists of the channel fields (models, groups, tags): "a, b,,a" -> ["a","b"], trimmed,
// without duplicates, order kept. Pure: the console and the server parse them alike.
export function splitList(value: string | null | undefined): string[] {
  const out: string[] = [];
  for (const part of (value ?? "").split(",")) {
    const v = part.trim();
    if (v && !out.includes(v)) out.push(v);
  }
  return out;
}
