"use client";
// The option GroupLimits as a table (docs/console-ui.md, "Limits"): a row per group with its
// seven default limits (quotas in the console's display unit, blank = none), rows added
// from the groups not yet listed and removed with their button. Bound to its section's form
// as the option's JSON text, so the settings save bar saves it and the option's own rule
// (lib/options/group-limits.ts) refuses a bad value under the table, naming group and field.
import { Plus, Trash } from "lucide-react";
import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import { useController, useFormContext } from "react-hook-form";
import useSWR from "swr";
import { fieldName, useOptionAccess } from "@/components/forms";
import { useQuotaDisplay } from "@/components/layout/providers";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { Table, Td, Th } from "@/components/ui/table";
import type { QuotaDisplay } from "@/lib/client/format";
import { dict } from "@/lib/own-keys";
import {
  blankLimitTexts,
  LIMIT_FIELD_LIST,
  kindOfField,
  limitTexts,
  parseGroupLimits,
  parseLimitInput,
  typesMoney,
  type LimitField,
} from "@/lib/client/limits";

type Row = { key: number; group: string; texts: Record<LimitField, string> };

const KEY = "GroupLimits";
// React keys of the rows (a row's group may change, so it cannot be its key)
let lastKey = 0;
const next = () => ++lastKey;

function rowsOf(text: string, display: QuotaDisplay): Row[] {
  const parsed = parseGroupLimits(text) ?? {};
  return Object.entries(parsed).map(([group, values]) => ({ key: next(), group, texts: limitTexts(values, display) }));
}

/**
 * The rows as the option's text: each limit set as quota units; a text that is not a valid
 * value is kept as typed (a string), which the option's rule refuses naming the group and field.
 */
function textOf(rows: Row[], display: QuotaDisplay): string {
  const out = dict<Record<string, number | string>>();
  for (const r of rows) {
    const set = dict<number | string>();
    for (const f of LIMIT_FIELD_LIST) {
      const typed = r.texts[f].trim();
      if (typed === "") continue;
      const v = parseLimitInput(kindOfField(f), typed, display);
      if (v === null) set[f] = typed;
      else if (v > 0) set[f] = v;
    }
    out[r.group] = set;
  }
  return JSON.stringify(out, null, 2);
}

export function GroupLimitsEditor() {
  const t = useTranslations("limits");
  const id = useId();
  const display = useQuotaDisplay();
  const money = typesMoney(display);
  const { control } = useFormContext<Record<string, string>>();
  const { field, fieldState } = useController({ control, name: fieldName(KEY) });
  const { writable } = useOptionAccess(KEY);
  const { data: known } = useSWR<string[]>("/api/group/");
  const written = useRef<string | null>(null);
  const [rows, setRows] = useState<Row[]>(() => rowsOf(field.value ?? "{}", display));
  // The field changed from outside (loaded again after a save, discarded): rows from it again.
  useEffect(() => {
    if (field.value !== written.current) {
      written.current = field.value;
      setRows(rowsOf(field.value ?? "{}", display));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the field's value restarts the rows
  }, [field.value]);

  function change(nextRows: Row[]) {
    setRows(nextRows);
    const text = textOf(nextRows, display);
    written.current = text;
    field.onChange(text);
  }
  const used = new Set(rows.map((r) => r.group));
  const free = (known ?? []).filter((g) => !used.has(g));
  const blank = blankLimitTexts();

  // w-0 min-w-full: the table adds no width to the page (it scrolls in its own box at 390 px)
  return (
    <div className="flex w-0 min-w-full flex-col gap-2" data-option-field data-testid="group-limits">
      <Table>
        <thead>
          <tr>
            <Th id={`${id}-group`}>{t("groups.group")}</Th>
            {LIMIT_FIELD_LIST.map((f) => (
              <Th key={f} title={t(`field.${f}`)}>
                {t(`short.${f}`)}
                {money && f.startsWith("quota_") ? " ($)" : ""}
              </Th>
            ))}
            <Th>
              <span className="sr-only">{t("groups.actions")}</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <Td colSpan={LIMIT_FIELD_LIST.length + 2} className="py-6 text-center text-zinc-500 dark:text-zinc-400">
                {t("groups.empty")}
              </Td>
            </tr>
          )}
          {rows.map((r, i) => {
            const options = [r.group, ...free];
            return (
              <tr key={r.key} data-testid={`group-limits-row-${r.group}`}>
                <Td className="min-w-32">
                  <Select
                    aria-label={t("groups.group")}
                    value={r.group}
                    disabled={!writable}
                    onChange={(e) => change(rows.map((x, j) => (j === i ? { ...x, group: e.target.value } : x)))}
                    className="w-full"
                  >
                    {options.map((g) => (
                      <option key={g} value={g}>
                        {g}
                        {known && !known.includes(g) ? ` (${t("groups.unknownGroup")})` : ""}
                      </option>
                    ))}
                  </Select>
                </Td>
                {LIMIT_FIELD_LIST.map((f) => (
                  <Td key={f} className="min-w-24">
                    <Input
                      aria-label={`${r.group} ${t(`field.${f}`)}`}
                      inputMode={money && f.startsWith("quota_") ? "decimal" : "numeric"}
                      placeholder="0"
                      value={r.texts[f]}
                      disabled={!writable}
                      onChange={(e) => change(rows.map((x, j) => (j === i ? { ...x, texts: { ...x.texts, [f]: e.target.value } } : x)))}
                      className="w-full"
                    />
                  </Td>
                ))}
                <Td>
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={!writable}
                    aria-label={t("groups.remove", { group: r.group })}
                    onClick={() => change(rows.filter((_, j) => j !== i))}
                  >
                    <Trash aria-hidden className="h-3.5 w-3.5" />
                  </Button>
                </Td>
              </tr>
            );
          })}
        </tbody>
      </Table>
      {fieldState.error?.message && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {fieldState.error.message}
        </p>
      )}
      <div>
        <Button
          size="sm"
          variant="secondary"
          disabled={!writable || free.length === 0}
          onClick={() => change([...rows, { key: next(), group: free[0], texts: { ...blank } }])}
        >
          <Plus aria-hidden className="h-3.5 w-3.5" />
          {t("groups.add")}
        </Button>
      </div>
    </div>
  );
}
