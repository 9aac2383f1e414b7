"use client";

import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from "recharts";

export interface CategoryBar {
  readonly key: string;
  readonly label: string;
  readonly value: number;
  readonly color: string;
}

/** One horizontal bar per category (orders per state, stuck orders per state): long state names stay readable. */
export function CategoryBarChart({ data, valueLabel }: { data: readonly CategoryBar[]; valueLabel: string }) {
  return (
    <BarChart
      layout="vertical"
      responsive
      data={[...data]}
      style={{ width: "100%", height: Math.max(120, 30 * data.length + 40) }}
      margin={{ top: 4, right: 16, bottom: 4, left: 8 }}
      accessibilityLayer
    >
      <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#e2e8f0" />
      <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11 }} />
      <YAxis type="category" dataKey="key" width={84} tick={{ fontSize: 11, fontFamily: "ui-monospace, monospace" }} interval={0} />
      <Tooltip
        cursor={{ fill: "#f1f5f9" }}
        labelFormatter={(key) => {
          const bar = data.find((d) => d.key === key);
          return bar ? `${bar.key} · ${bar.label}` : String(key);
        }}
      />
      <Bar dataKey="value" name={valueLabel} isAnimationActive={false} barSize={18}>
        {data.map((d) => (
          <Cell key={d.key} fill={d.color} />
        ))}
      </Bar>
    </BarChart>
  );
}
