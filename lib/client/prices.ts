// Pure maths of the pricing page (docs/product-rules.md, "Pricing"): prices for the viewer's group,
// colours, the fuzzy model search.
import type { BadgeColor } from "@/lib/client/badge-color";

// Prices in USD per 1M tokens (by volume) or per call, for the viewer's group ratio.
export function promptPrice(modelRatio: number, groupRatio: number): number {
  return modelRatio * 2 * groupRatio;
}
export function completionPrice(modelRatio: number, completionRatio: number, groupRatio: number): number {
  return promptPrice(modelRatio, groupRatio) * completionRatio;
}
export function perCallPrice(modelPrice: number, groupRatio: number): number {
  return modelPrice * groupRatio;
}

export function ratioColor(r: number): BadgeColor {
  if (r > 5) return "red";
  if (r > 3) return "orange";
  if (r > 1) return "blue";
  return "green";
}

// "$1.5" with at most 6 significant decimals, no trailing zeros.
export function formatUsd(n: number): string {
  return "$" + Number(n.toFixed(6)).toString();
}

// Fuzzy model search: every character of the query, in order, case-insensitive.
export function fuzzyMatch(name: string, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const s = name.toLowerCase();
  if (s.includes(q)) return true;
  let i = 0;
  for (const ch of s) if (ch === q[i]) i++;
  return i === q.length;
}
