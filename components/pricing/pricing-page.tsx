"use client";
// /pricing (public; docs/product-rules.md): the viewer's group and ratio, the formula,
// fuzzy search, copy of the selected names, the ratio column and the availability filter.
// Prices (docs/product-rules.md): prompt per 1M = model_ratio x 2 x group ratio; completion =
// that x completion_ratio; per call = model_price x group ratio.
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import useSWR from "swr";
import { useSessionUser, useStatus } from "@/components/layout/providers";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Alert, PageTitle } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { EmptyRow, SelectAllHeader, Table, Td, Th } from "@/components/ui/table";
import { copyText } from "@/lib/client/clipboard";
import { fetchPricing, PRICING_PATH, type Pricing } from "@/lib/client/pricing";
import { completionPrice, formatUsd, fuzzyMatch, perCallPrice, promptPrice, ratioColor } from "@/lib/client/prices";
import { readItem, STORAGE_KEYS, writeItem } from "@/lib/client/storage";
import { formatMs, formatRate, rateColor, STATUS_MODELS_PATH, type StatusModels } from "@/lib/client/perf";

export function PricingPage() {
  const t = useTranslations("pricing");
  const user = useSessionUser();
  const { data, error, isLoading } = useSWR<Pricing>(PRICING_PATH, fetchPricing);
  // the status page's badges (24-hour availability and median TTFT of the default group), when it is on
  const { data: health } = useSWR<StatusModels>(useStatus().status_page_enabled ? STATUS_MODELS_PATH : null);
  const healthOf = useMemo(() => new Map((health?.models ?? []).map((m) => [m.model_name, m.day])), [health]);
  const [query, setQuery] = useState("");
  const [selected, setSelected] = useState<string[]>([]);
  const [showRatio, setShowRatio] = useState(false);
  const [onlyAvailable, setOnlyAvailable] = useState(false);
  const [manual, setManual] = useState<string | null>(null);
  useEffect(() => setShowRatio(readItem(STORAGE_KEYS.pricingShowRatio) === "true"), []);

  const group = user?.group ?? data?.group ?? "default";
  const ratio = data ? (typeof data.group_ratio[group] === "number" ? data.group_ratio[group] : 1) : 1;
  const rows = useMemo(
    () => (data?.data ?? []).filter((r) => fuzzyMatch(r.model_name, query) && (!onlyAvailable || r.enable_groups.includes(group))),
    [data, query, onlyAvailable, group],
  );

  async function copySelected() {
    if (!selected.length) return;
    const text = selected.join(",");
    const ok = await copyText(text, "pricing.copied");
    if (!ok) setManual(text);
  }

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6">
      <PageTitle>{t("title")}</PageTitle>
      <div className="mb-4 flex flex-col gap-3">
        {user ? (
          <Alert tone="info">
            <span className="inline-flex flex-wrap items-center gap-2">
              {t("yourGroup", { group })}
              <Badge color={ratioColor(ratio)}>{t("groupRatio", { ratio })}</Badge>
            </span>
          </Alert>
        ) : (
          <Alert tone="warning">
            <span className="inline-flex flex-wrap items-center gap-2">
              {t("loggedOut")}
              <Badge color={ratioColor(ratio)}>{t("groupRatio", { ratio })}</Badge>
            </span>
          </Alert>
        )}
        <Alert tone="info">{t("formula")}</Alert>
      </div>
      <div className="mb-3 flex flex-wrap items-center gap-4">
        <Input aria-label={t("search")} placeholder={t("search")} value={query} onChange={(e) => setQuery(e.target.value)} className="max-w-xs" />
        <Button variant="secondary" disabled={!selected.length} onClick={() => void copySelected()}>
          {t("copySelected", { count: selected.length })}
        </Button>
        <Switch
          checked={showRatio}
          onChange={(v) => {
            writeItem(STORAGE_KEYS.pricingShowRatio, String(v));
            setShowRatio(v);
          }}
          label={t("showRatio")}
        />
        <Switch checked={onlyAvailable} onChange={setOnlyAvailable} label={t("onlyAvailable")} />
      </div>
      <Table>
        <thead>
          <tr>
            <SelectAllHeader label={t("selectAll")} rowIds={rows.map((r) => r.model_name)} selected={selected} onSelect={setSelected} />
            <Th>{t("col.model")}</Th>
            <Th>{t("col.billing")}</Th>
            <Th>{t("col.availability")}</Th>
            {showRatio && <Th>{t("col.ratio")}</Th>}
            <Th>{t("col.price")}</Th>
          </tr>
        </thead>
        <tbody>
          {isLoading && !data && <EmptyRow colSpan={showRatio ? 6 : 5}>{t("loading")}</EmptyRow>}
          {error && !data && <EmptyRow colSpan={showRatio ? 6 : 5}>{t("loadFailed")}</EmptyRow>}
          {data && rows.length === 0 && <EmptyRow colSpan={showRatio ? 6 : 5}>{t("empty")}</EmptyRow>}
          {rows.map((r) => {
            const available = r.enable_groups.includes(group);
            return (
              <tr key={r.model_name} data-testid={`pricing-row-${r.model_name}`}>
                <Td>
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-blue-600"
                    aria-label={t("select", { name: r.model_name })}
                    checked={selected.includes(r.model_name)}
                    onChange={() => setSelected(selected.includes(r.model_name) ? selected.filter((x) => x !== r.model_name) : [...selected, r.model_name])}
                  />
                </Td>
                <Td className="font-mono text-xs">{r.model_name}</Td>
                <Td>
                  <Badge color={r.quota_type === 1 ? "purple" : "blue"}>{r.quota_type === 1 ? t("perCall") : t("perVolume")}</Badge>
                </Td>
                <Td>
                  {available ? <Badge color="green">{t("available")}</Badge> : <Badge color="gray">{t("unavailable")}</Badge>}
                  <div className="mt-1 text-xs text-zinc-500">{r.enable_groups.join(", ")}</div>
                  {healthOf.get(r.model_name) && (
                    <div className="mt-1 flex flex-wrap items-center gap-1" data-testid={`pricing-health-${r.model_name}`}>
                      <Badge color={rateColor(healthOf.get(r.model_name)!.success_rate)}>
                        {t("uptime", { rate: formatRate(healthOf.get(r.model_name)!.success_rate) })}
                      </Badge>
                      <Badge color="gray">{t("ttft", { ttft: formatMs(healthOf.get(r.model_name)!.ttft_p50_ms) })}</Badge>
                    </div>
                  )}
                </Td>
                {showRatio && (
                  <Td className="text-xs">
                    {r.quota_type === 1 ? (
                      "—"
                    ) : (
                      <div className="flex flex-col gap-1">
                        <span>
                          {t("modelRatio")} <Badge color={ratioColor(r.model_ratio)}>{r.model_ratio}</Badge>
                        </span>
                        <span>
                          {t("completionRatio")} <Badge color={ratioColor(r.completion_ratio)}>{r.completion_ratio}</Badge>
                        </span>
                        <span>
                          {t("groupRatioShort")} <Badge color={ratioColor(ratio)}>{ratio}</Badge>
                        </span>
                      </div>
                    )}
                  </Td>
                )}
                <Td className="text-xs whitespace-nowrap">
                  {r.price_set === false ? (
                    <Badge color="orange">{t("priceNotSet")}</Badge>
                  ) : r.quota_type === 1 ? (
                    t("pricePerCall", { price: formatUsd(perCallPrice(r.model_price, ratio)) })
                  ) : (
                    <div className="flex flex-col">
                      <span>{t("promptPrice", { price: formatUsd(promptPrice(r.model_ratio, ratio)) })}</span>
                      <span>{t("completionPrice", { price: formatUsd(completionPrice(r.model_ratio, r.completion_ratio, ratio)) })}</span>
                    </div>
                  )}
                </Td>
              </tr>
            );
          })}
        </tbody>
      </Table>
      <Dialog open={manual !== null} onOpenChange={(o) => !o && setManual(null)} title={t("manualCopyTitle")} description={t("manualCopy")}>
        <Input readOnly aria-label={t("manualCopyTitle")} value={manual ?? ""} onFocus={(e) => e.target.select()} className="font-mono" />
      </Dialog>
    </div>
  );
}
