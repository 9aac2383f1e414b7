"use client";

import { useEffect, useState } from "react";
import { formatDuration } from "@/lib/format";

/**
 * A timestamp in the viewer's own time zone with its age ("3 hours ago"). Rendered on the client:
 * the server does not know the viewer's zone. The ISO value is in `dateTime` and the title.
 */
export function Time({ value }: { value: Date | string }) {
  const date = typeof value === "string" ? new Date(value) : value;
  const iso = date.toISOString();
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  if (now === null) return <time dateTime={iso}>{iso.slice(0, 19).replace("T", " ")} UTC</time>;
  return (
    <time dateTime={iso} title={iso}>
      {date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" })}{" "}
      <span className="text-slate-500">({formatDuration((now - date.getTime()) / 1000)} ago)</span>
    </time>
  );
}
