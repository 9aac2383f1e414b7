"use client";

import { useState } from "react";

/** Copies an id to the clipboard; says so for a moment (and to screen readers). */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1_500);
        });
      }}
      className="rounded px-1 text-xs text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-slate-900"
      aria-label={`${label} ${value}`}
      title={`${label} ${value}`}
    >
      <span aria-live="polite">{copied ? "✓" : "⧉"}</span>
    </button>
  );
}
