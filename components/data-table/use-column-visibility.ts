"use client";
// Column visibility remembered per table (localStorage `table-columns:<id>`, lib/client/table-columns.ts).
// Read after mount: the server cannot know it, so the first paint shows every column.
import type { VisibilityState } from "@tanstack/react-table";
import { useCallback, useEffect, useState } from "react";
import { hiddenOf, readHiddenColumns, visibilityOf, writeHiddenColumns } from "@/lib/client/table-columns";

export function useColumnVisibility(tableId: string, hideable: readonly string[]): [VisibilityState, (v: VisibilityState) => void] {
  const key = hideable.join(",");
  const [visibility, setVisibility] = useState<VisibilityState>({});
  useEffect(() => {
    const ids = key ? key.split(",") : [];
    setVisibility(visibilityOf(readHiddenColumns(tableId, ids), ids));
  }, [tableId, key]);
  const change = useCallback(
    (v: VisibilityState) => {
      const ids = key ? key.split(",") : [];
      writeHiddenColumns(tableId, hiddenOf(v, ids));
      setVisibility(v);
    },
    [tableId, key],
  );
  return [visibility, change];
}
