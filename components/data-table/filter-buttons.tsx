"use client";
// The buttons under a list's filter form (docs/console-ui.md, "DataTable"): search (the form's
// submit), reset, and, where the list can be downloaded, export at the row's end.
import { Download, RotateCcw, Search } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

export function FilterButtons({
  labels,
  onReset,
  onExport,
  exporting = false,
  className,
}: {
  labels: { search: string; reset: string; export?: string };
  onReset: () => void;
  onExport?: () => void;
  exporting?: boolean;
  className?: string;
}) {
  return (
    <div className={cn("flex flex-wrap items-end gap-2", className)}>
      <Button type="submit">
        <Search aria-hidden className="h-4 w-4" />
        {labels.search}
      </Button>
      <Button variant="ghost" onClick={onReset}>
        <RotateCcw aria-hidden className="h-4 w-4" />
        {labels.reset}
      </Button>
      {onExport && (
        <Button variant="secondary" className="ml-auto" disabled={exporting} onClick={onExport}>
          <Download aria-hidden className="h-4 w-4" />
          {labels.export}
        </Button>
      )}
    </div>
  );
}
