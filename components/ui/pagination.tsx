"use client";
import { useTranslations } from "next-intl";
import { PAGE_SIZES } from "@/lib/client/storage";
import { Button } from "./button";
import { Select } from "./input";

// Page controls under a table: previous / next, "page x of y", and the page-size choice
// (PAGE_SIZES; left out when the list has a fixed size, onPageSize absent).
export function Pagination({
  page,
  pageSize,
  total,
  totalExact = true,
  onPage,
  onPageSize,
}: {
  page: number; // 0-based
  pageSize: number;
  total: number;
  totalExact?: boolean; // false: at least `total` (a bounded count); the pager never ends
  onPage: (p: number) => void;
  onPageSize?: (n: number) => void;
}) {
  const t = useTranslations("pagination");
  // a bounded count: there is at least one more page than the counted rows fill
  const pages = Math.max(1, Math.ceil(total / pageSize) + (totalExact ? 0 : 1));
  return (
    <div className="mt-3 flex flex-wrap items-center justify-end gap-3 text-sm text-zinc-600 dark:text-zinc-400">
      <span data-testid="pagination-total">{totalExact ? t("total", { total }) : t("totalAtLeast", { total })}</span>
      <Button variant="secondary" size="sm" disabled={page <= 0} onClick={() => onPage(page - 1)}>
        {t("previous")}
      </Button>
      <span>{totalExact ? t("page", { page: page + 1, pages }) : t("pageOfMany", { page: page + 1 })}</span>
      <Button variant="secondary" size="sm" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
        {t("next")}
      </Button>
      {onPageSize && (
        <Select aria-label={t("pageSize")} value={pageSize} onChange={(e) => onPageSize(Number(e.target.value))} className="h-8 w-auto">
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {t("perPage", { n })}
            </option>
          ))}
        </Select>
      )}
    </div>
  );
}
