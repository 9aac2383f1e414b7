"use client";

import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from "recharts";

export interface CategoryBar {
  readonly key: string;
  readonly label: string;
  readonly value: number;
  readonly color: string;
  /** The orders this bar counts, in the orders list: a click on the bar opens them. */
  readonly href?: string;
}

/** One horizontal bar per category (orders per state, stuck orders per state): long state names stay readable. */
export function CategoryBarChart({ data, valueLabel }: { data: readonly CategoryBar[]; valueLabel: string }) {
  const router = useRouter();
  return (
    <BarChart
      layout="vertical"
      responsive
      data={[...data]}
      style={{ width: "100%", height: Math.max(120, 30 * data.length + 40) }}
      margin={{ top: 4, right: 16, bottom: 4, left: 8 }}
      accessibilityLayer={false}
    >
      <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#e2e8f0" />
      <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11 }} />
      {/* Ticks in the reader's language (the tooltip adds the machine name). */}
      <YAxis type="category" dataKey="key" width={120} tick={{ fontSize: 11 }} interval={0} tickFormatter={(key: string) => data.find((d) => d.key === key)?.label ?? key} />
      <Tooltip
        cursor={{ fill: "#f1f5f9" }}
        labelFormatter={(key) => {
          const bar = data.find((d) => d.key === key);
          return bar ? `${bar.key} · ${bar.label}` : String(key);
        }}
      />
      <Bar
        dataKey="value"
        name={valueLabel}
        isAnimationActive={false}
        barSize={18}
        cursor="pointer"
        onClick={(_, index) => {
          const href = data[index]?.href;
          if (href) router.push(href);
        }}
      >
        {data.map((d) => (
          <Cell key={d.key} fill={d.color} />
        ))}
      </Bar>
    </BarChart>
  );
}
