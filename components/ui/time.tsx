"use client";

import { useFormatter, useLocale } from "next-intl";
import { useSyncExternalStore } from "react";

// One shared clock for every <Time>: ticks every 30 s. On the server (and during hydration) there
// is no "now", so the first paint shows the UTC timestamp and the viewer's zone follows.
const TICK_MS = 30_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  now = Date.now();
  timer ??= setInterval(() => {
    now = Date.now();
    for (const l of listeners) l();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * A timestamp in the viewer's own time zone, written in the UI's language, with its age
 * ("3 hours ago", "3小时前"). The ISO value is in `dateTime` and the title, for copying.
 */
export function Time({ value }: { value: Date | string }) {
  const format = useFormatter();
  const locale = useLocale();
  const current = useSyncExternalStore(subscribe, () => now, () => null);
  const date = typeof value === "string" ? new Date(value) : value;
  const iso = date.toISOString();
  if (current === null) return <time dateTime={iso}>{iso.slice(0, 19).replace("T", " ")} UTC</time>;
  return (
    <time dateTime={iso} title={iso}>
      {date.toLocaleString(locale, { dateStyle: "medium", timeStyle: "medium" })}{" "}
      <span className="text-slate-600">({format.relativeTime(date, current)})</span>
    </time>
  );
}
