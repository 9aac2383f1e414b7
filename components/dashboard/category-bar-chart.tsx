"use client";

import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from "recharts";

export interface CategoryBar {
  readonly key: string;
  readonly label: string;
  readonly value: number;
  readonly color: string;
}

/** One bar per category (orders per state, stuck orders per state). */
export function CategoryBarChart({ data, valueLabel }: { data: readonly CategoryBar[]; valueLabel: string }) {
  return (
    <BarChart responsive data={[...data]} style={{ width: "100%", height: 220 }} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} accessibilityLayer>
      <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
      <XAxis dataKey="key" tick={{ fontSize: 11, fontFamily: "ui-monospace, monospace" }} interval={0} />
      <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={48} />
      <Tooltip
        cursor={{ fill: "#f1f5f9" }}
        labelFormatter={(key) => {
          const bar = data.find((d) => d.key === key);
          return bar ? `${bar.key} · ${bar.label}` : String(key);
        }}
      />
      <Bar dataKey="value" name={valueLabel} isAnimationActive={false}>
        {data.map((d) => (
          <Cell key={d.key} fill={d.color} />
        ))}
      </Bar>
    </BarChart>
  );
}
