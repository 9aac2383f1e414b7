"use client";

import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";

/** A value per UTC day ("2026-11-03"), oldest on the left. */
export function DailyBarChart({ data, valueLabel, color }: { data: readonly { day: string; value: number }[]; valueLabel: string; color: string }) {
  return (
    <BarChart responsive data={[...data]} style={{ width: "100%", height: 220 }} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} accessibilityLayer>
      <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
      <XAxis dataKey="day" tick={{ fontSize: 11 }} tickFormatter={(day: string) => day.slice(5)} minTickGap={16} />
      <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={48} />
      <Tooltip cursor={{ fill: "#f1f5f9" }} labelFormatter={(day) => `${String(day)} UTC`} />
      <Bar dataKey="value" name={valueLabel} fill={color} isAnimationActive={false} />
    </BarChart>
  );
}
