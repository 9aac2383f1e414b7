"use client";

import { useTranslations } from "next-intl";
import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * Sends the viewer's IANA time zone with the filter form, so "created from/to" are the viewer's own
 * calendar days, and says which zone that is. Without JavaScript (and before hydration) the zone
 * already in the URL, or UTC, is kept.
 */
export function TimeZoneInput({ current }: { current: string }) {
  const t = useTranslations("orders.filters");
  const zone = useSyncExternalStore(
    noSubscription,
    () => Intl.DateTimeFormat().resolvedOptions().timeZone || current,
    () => current,
  );
  return (
    <>
      <input type="hidden" name="tz" value={zone} />
      <p className="text-xs text-slate-500">{t("daysIn", { zone })}</p>
    </>
  );
}
