"use client";

import { useLocale } from "next-intl";
import { useSyncExternalStore } from "react";
import { formatRelative } from "@/lib/format";

// One shared clock for every <Time>: ticks every 30 s. On the server (and during hydration) there
// is no "now", so the first paint shows the UTC timestamp and the viewer's zone follows.
const TICK_MS = 30_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let catchingUp = false;

function tick(): void {
  catchingUp = false;
  now = Date.now();
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // A <Time> that mounts after a client-side navigation was rendered with the clock of the last
  // tick, up to 30 s old: a fact newer than that read "in 4 seconds". Every subscriber (this one
  // included) moves to the current time at once, so all of a page's times share one clock.
  if (!catchingUp && Date.now() - now >= 1_000) {
    catchingUp = true;
    queueMicrotask(tick);
  }
  timer ??= setInterval(tick, TICK_MS);
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
 * ("3 hours ago", "3小时前", "in 2 hours"). The ISO value is in `dateTime` and the title, for copying.
 *
 * `secondsAgo`: how long before the data was read `value` was (negative: still ahead), as the
 * server measured it. Give it where the same line shows that span ("in paid for 5 days", "10 hours
 * left"): the age is then told from that one measurement, rounded the same way (wholeUnit), so the
 * two cannot disagree — not by the viewer's clock, nor by rounding. Without it the age follows the
 * shared clock.
 */
export function Time({ value, secondsAgo }: { value: Date | string; secondsAgo?: number }) {
  const locale = useLocale();
  const current = useSyncExternalStore(subscribe, () => now, () => null);
  const date = typeof value === "string" ? new Date(value) : value;
  const iso = date.toISOString();
  const ago = secondsAgo ?? (current === null ? null : (current - date.getTime()) / 1000);
  const age = ago === null ? null : <span className="text-slate-600">({formatRelative(ago, locale)})</span>;
  if (current === null) {
    return (
      <time dateTime={iso}>
        {iso.slice(0, 19).replace("T", " ")} UTC{age ? <> {age}</> : null}
      </time>
    );
  }
  return (
    <time dateTime={iso} title={iso}>
      {date.toLocaleString(locale, { dateStyle: "medium", timeStyle: "medium" })} {age}
    </time>
  );
}
