import type { ReactNode } from "react";
import type { BadgeColor } from "@/lib/client/badge-color";
import { cn } from "./cn";

export type { BadgeColor };

const COLORS: Record<BadgeColor, string> = {
  gray: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  green: "bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-300",
  red: "bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-300",
  orange: "bg-orange-100 text-orange-800 dark:bg-orange-900/50 dark:text-orange-300",
  blue: "bg-blue-100 text-blue-800 dark:bg-blue-900/50 dark:text-blue-300",
  purple: "bg-purple-100 text-purple-800 dark:bg-purple-900/50 dark:text-purple-300",
  yellow: "bg-yellow-100 text-yellow-800 dark:bg-yellow-900/50 dark:text-yellow-300",
};

export function Badge({ color = "gray", children, className }: { color?: BadgeColor; children: ReactNode; className?: string }) {
  return (
    <span className={cn("inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap", COLORS[color], className)}>{children}</span>
  );
}
