"use client";
// The dashboard's charts (recharts 3): quota and calls by model as stacked bars, tokens as
// stacked areas, each model's share as a donut. The eight largest models get their own
// colour; the rest are summed as "other". Axis and grid colours follow the theme through CSS
// variables set on the wrapper (light and dark).
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Cell, Legend, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { bucketLabel, MODEL_COLORS, OTHER_COLOR, type Granularity, type ModelShare, type Point, type Series } from "@/lib/client/dashboard";
import { shortenNumber } from "@/lib/client/format";
import { LOCALE_TAGS, toLocale } from "@/lib/i18n/locale";
import { useLocale } from "next-intl";

export type QuotaFormat = (quota: number) => string;

const SHOWN = 8;
const OTHER = "\u0000other"; // no model name holds a NUL
const HEIGHT = 280;

const WRAP =
  "h-[280px] w-full text-xs text-zinc-500 [--chart-grid:#e4e4e7] [--chart-tip:#ffffff] [--chart-tip-border:#e4e4e7] dark:text-zinc-400 dark:[--chart-grid:#3f3f46] dark:[--chart-tip:#18181b] dark:[--chart-tip-border:#3f3f46]";
const TIP_STYLE = { backgroundColor: "var(--chart-tip)", border: "1px solid var(--chart-tip-border)", borderRadius: 6, fontSize: 12 };
const TICK = { fill: "currentColor", fontSize: 11 };

// Recharts reads a bar's value by a key of each row and copies the rows' fields onto the
// SVG: the rows it gets are plain objects keyed by position ("s0".."s7", and "rest" for the
// models past SHOWN summed), never by a model's name; each bar is named after its model.
type Row = { t: number; total: number; [slot: string]: number };
type Slot = { key: string; name: string };

function fold(points: Point[], models: string[], otherLabel: string): { data: Row[]; slots: Slot[] } {
  const shown = models.slice(0, SHOWN);
  const rest = models.slice(SHOWN);
  const slots: Slot[] = shown.map((name, i) => ({ key: `s${i}`, name }));
  if (rest.length) slots.push({ key: "rest", name: otherLabel });
  const data = points.map((p) => {
    const row: Row = { t: p.t, total: p.total };
    shown.forEach((m, i) => (row[`s${i}`] = p.by[m] ?? 0));
    if (rest.length) row.rest = rest.reduce((a, m) => a + (p.by[m] ?? 0), 0);
    return row;
  });
  return { data, slots };
}

function StackedBars({
  points,
  models,
  granularity,
  format,
  otherLabel,
  totalLabel,
  testId,
}: {
  points: Point[];
  models: string[];
  granularity: Granularity;
  format: (n: number) => string;
  otherLabel: string;
  totalLabel: string;
  testId: string;
}) {
  const { data, slots } = fold(points, models, otherLabel);
  return (
    <div className={WRAP} data-testid={testId}>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--chart-grid)" vertical={false} />
          <XAxis dataKey="t" tickFormatter={(v: number) => bucketLabel(v, granularity)} tick={TICK} stroke="var(--chart-grid)" minTickGap={16} />
          <YAxis tickFormatter={(v: number) => format(v)} tick={TICK} stroke="var(--chart-grid)" width={64} />
          <Tooltip
            contentStyle={TIP_STYLE}
            labelFormatter={(v) => `${bucketLabel(Number(v), granularity)} · ${totalLabel} ${format(data.find((p) => p.t === Number(v))?.total ?? 0)}`}
            formatter={(v, name) => [format(Number(v)), String(name)]}
            cursor={{ fill: "var(--chart-grid)", opacity: 0.4 }}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          {slots.map((slot, i) => (
            <Bar
              key={slot.key}
              name={slot.name}
              dataKey={slot.key}
              stackId="m"
              fill={slot.key === "rest" ? OTHER_COLOR : MODEL_COLORS[i % MODEL_COLORS.length]}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function QuotaChart(props: { series: Series; granularity: Granularity; format: QuotaFormat; otherLabel: string; totalLabel: string }) {
  return (
    <StackedBars
      points={props.series.quota}
      models={props.series.models}
      granularity={props.granularity}
      format={props.format}
      otherLabel={props.otherLabel}
      totalLabel={props.totalLabel}
      testId="chart-quota"
    />
  );
}

export function CallsChart(props: { series: Series; granularity: Granularity; otherLabel: string; totalLabel: string }) {
  return (
    <StackedBars
      points={props.series.calls}
      models={props.series.models}
      granularity={props.granularity}
      format={(n) => shortenNumber(n)}
      otherLabel={props.otherLabel}
      totalLabel={props.totalLabel}
      testId="chart-calls"
    />
  );
}

export function TokensChart({ series, granularity, labels }: { series: Series; granularity: Granularity; labels: { prompt: string; completion: string } }) {
  const numberFormat = new Intl.NumberFormat(LOCALE_TAGS[toLocale(useLocale())]);
  return (
    <div className={WRAP} data-testid="chart-tokens">
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <AreaChart data={series.tokens} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--chart-grid)" vertical={false} />
          <XAxis dataKey="t" tickFormatter={(v: number) => bucketLabel(v, granularity)} tick={TICK} stroke="var(--chart-grid)" minTickGap={16} />
          <YAxis tickFormatter={(v: number) => shortenNumber(v)} tick={TICK} stroke="var(--chart-grid)" width={64} />
          <Tooltip
            contentStyle={TIP_STYLE}
            labelFormatter={(v) => bucketLabel(Number(v), granularity)}
            formatter={(v, name) => [numberFormat.format(Number(v)), String(name)]}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          <Area
            type="monotone"
            dataKey="prompt"
            name={labels.prompt}
            stackId="t"
            stroke="#3b82f6"
            fill="#3b82f6"
            fillOpacity={0.35}
            isAnimationActive={false}
          />
          <Area
            type="monotone"
            dataKey="completion"
            name={labels.completion}
            stackId="t"
            stroke="#10b981"
            fill="#10b981"
            fillOpacity={0.35}
            isAnimationActive={false}
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}

export function ShareChart({ shares, format, otherLabel }: { shares: ModelShare[]; format: QuotaFormat; otherLabel: string }) {
  const shown = shares.slice(0, SHOWN).map((s) => ({ name: s.model, value: s.share, quota: s.quota }));
  const rest = shares.slice(SHOWN);
  if (rest.length) shown.push({ name: OTHER, value: rest.reduce((a, s) => a + s.share, 0), quota: rest.reduce((a, s) => a + s.quota, 0) });
  return (
    <div className={WRAP} data-testid="chart-share">
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <PieChart>
          <Pie
            data={shown}
            dataKey="value"
            nameKey="name"
            innerRadius="50%"
            outerRadius="80%"
            paddingAngle={1}
            isAnimationActive={false}
            stroke="var(--chart-tip)"
          >
            {shown.map((s, i) => (
              <Cell key={s.name} fill={s.name === OTHER ? OTHER_COLOR : MODEL_COLORS[i % MODEL_COLORS.length]} />
            ))}
          </Pie>
          <Tooltip
            contentStyle={TIP_STYLE}
            formatter={(v, name, item) => [
              `${(Number(v) * 100).toFixed(1)}% · ${format(Number((item?.payload as { quota?: number } | undefined)?.quota ?? 0))}`,
              name === OTHER ? otherLabel : String(name),
            ]}
          />
          <Legend formatter={(v: string) => (v === OTHER ? otherLabel : v)} wrapperStyle={{ fontSize: 11 }} />
        </PieChart>
      </ResponsiveContainer>
    </div>
  );
}
