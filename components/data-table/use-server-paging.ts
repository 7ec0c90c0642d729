"use client";
// Page number and page size of a server-paged list. The size is the one remembered under
// localStorage `page-size` (lib/client/use-page-size.ts): null until read after mount, so a list
// keyed on it is fetched once at the right size. The page goes back to the first whenever
// `resetKey` changes (the filters, the sort, a mode).
import { useEffect, useState } from "react";
import type { StorageKey } from "@/lib/client/storage";
import { usePageSize } from "@/lib/client/use-page-size";

// `sizeKey`: the localStorage key of the remembered size when the list has its own.
export function useServerPaging(resetKey: unknown, sizeKey?: StorageKey) {
  const [pageSize, setPageSize] = usePageSize(sizeKey);
  const [page, setPage] = useState(0);
  const reset = JSON.stringify(resetKey ?? null);
  useEffect(() => setPage(0), [reset, pageSize]);
  return { page, setPage, pageSize, setPageSize };
}
