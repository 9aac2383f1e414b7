import { useTranslations } from "next-intl";

const UNITS = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
] as const;

/**
 * "3 hours" / "3 小时": the largest whole unit, for time in state, thresholds and queue ages.
 * Works in server and client components alike (the live queues use it too).
 */
export function useFormatDuration(): (seconds: number) => string {
  const t = useTranslations("orders.duration");
  return (seconds) => {
    const s = Math.max(0, Math.floor(seconds));
    const [unit, size] = UNITS.find(([, size]) => s >= size) ?? UNITS[3];
    return t(unit, { count: Math.floor(s / size) });
  };
}

export function Duration({ seconds }: { seconds: number }) {
  const format = useFormatDuration();
  return <>{format(seconds)}</>;
}
