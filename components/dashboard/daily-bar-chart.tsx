"use client";

import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";

/**
 * A value per UTC day ("2026-11-03"), oldest on the left. `ordersHref`: the orders list filtered
 * to the chart's orders; a click on a day's bar opens it narrowed to that day.
 */
export function DailyBarChart({ data, valueLabel, color, ordersHref }: { data: readonly { day: string; value: number }[]; valueLabel: string; color: string; ordersHref?: string }) {
  const router = useRouter();
  return (
    <BarChart responsive data={[...data]} style={{ width: "100%", height: 220 }} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} accessibilityLayer={false}>
      <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
      <XAxis dataKey="day" tick={{ fontSize: 11 }} tickFormatter={(day: string) => day.slice(5)} minTickGap={16} />
      <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={48} />
      <Tooltip cursor={{ fill: "#f1f5f9" }} labelFormatter={(day) => `${String(day)} UTC`} />
      <Bar
        dataKey="value"
        name={valueLabel}
        fill={color}
        isAnimationActive={false}
        cursor={ordersHref ? "pointer" : undefined}
        onClick={(_, index) => {
          const day = data[index]?.day;
          if (ordersHref && day) router.push(`${ordersHref}&from=${day}&to=${day}&tz=UTC`);
        }}
      />
    </BarChart>
  );
}
