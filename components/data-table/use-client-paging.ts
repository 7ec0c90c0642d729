"use client";
// Paging in the browser, for a list loaded whole (docs/console-ui.md, "DataTable"): the rows
// of the current page and the DataTable's paging props. The page is kept within the list
// when it shrinks (a search, a delete); a new search should call reset(). With
// { fixedSize } the page size cannot be changed (the pager shows no size choice).
import { useState } from "react";
import { DEFAULT_PAGE_SIZE } from "@/lib/client/storage";
import type { DataTablePaging } from "./types";

export function useClientPaging<T>(rows: readonly T[] | undefined, opts: { pageSize?: number; fixedSize?: boolean } = {}) {
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(opts.pageSize ?? DEFAULT_PAGE_SIZE);
  const total = rows?.length ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(page, pages - 1);
  const pageRows = rows?.slice(current * pageSize, (current + 1) * pageSize);
  const paging: DataTablePaging = {
    page: current,
    pageSize,
    total,
    onPage: setPage,
    onPageSize: opts.fixedSize
      ? undefined
      : (n) => {
          setPageSize(n);
          setPage(0);
        },
  };
  return { pageRows, paging, reset: () => setPage(0) };
}
