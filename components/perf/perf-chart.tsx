"use client";
// The performance tab's line charts (recharts 3, docs/performance.md): one metric over time for
// the keys (models or channels) with the most calls. Colours and theme as the dashboard's charts.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { bucketLabel, MODEL_COLORS } from "@/lib/client/dashboard";
import type { PerfPoint } from "@/lib/client/perf";

const WRAP =
  "h-[260px] w-full text-xs text-zinc-500 [--chart-grid:#e4e4e7] [--chart-tip:#ffffff] [--chart-tip-border:#e4e4e7] dark:text-zinc-400 dark:[--chart-grid:#3f3f46] dark:[--chart-tip:#18181b] dark:[--chart-tip-border:#3f3f46]";
const TIP_STYLE = { backgroundColor: "var(--chart-tip)", border: "1px solid var(--chart-tip-border)", borderRadius: 6, fontSize: 12 };
const TICK = { fill: "currentColor", fontSize: 11 };

export function PerfLineChart({
  points,
  names,
  hourly,
  format,
  testId,
}: {
  points: PerfPoint[];
  names: string[];
  hourly: boolean;
  format: (v: number) => string;
  testId: string;
}) {
  const g = hourly ? "hour" : "day";
  return (
    <div className={WRAP} data-testid={testId}>
      <ResponsiveContainer width="100%" height={260}>
        <LineChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--chart-grid)" vertical={false} />
          <XAxis dataKey="t" tickFormatter={(v: number) => bucketLabel(v, g)} tick={TICK} stroke="var(--chart-grid)" minTickGap={16} />
          <YAxis tickFormatter={(v: number) => format(v)} tick={TICK} stroke="var(--chart-grid)" width={64} />
          <Tooltip contentStyle={TIP_STYLE} labelFormatter={(v) => bucketLabel(Number(v), g)} formatter={(v, name) => [format(Number(v)), String(name)]} />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          {names.map((name, i) => (
            <Line
              key={name}
              name={name}
              dataKey={`s${i}`}
              stroke={MODEL_COLORS[i % MODEL_COLORS.length]}
              strokeWidth={2}
              dot={points.length < 40}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
