import { useTranslations } from "next-intl";
import { wholeUnit } from "@/lib/format";

/**
 * "3 hours" / "3 小时": the largest whole unit, rounded down (wholeUnit, the same rounding as the
 * "3 hours ago" of <Time>), for time in state, thresholds and queue ages. Works in server and
 * client components alike (the live queues use it too).
 */
export function useFormatDuration(): (seconds: number) => string {
  const t = useTranslations("orders.duration");
  return (seconds) => {
    const { unit, count } = wholeUnit(Math.max(0, seconds));
    return t(unit, { count });
  };
}

export function Duration({ seconds }: { seconds: number }) {
  const format = useFormatDuration();
  return <>{format(seconds)}</>;
}
