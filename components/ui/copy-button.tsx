"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

/**
 * Copies an id to the clipboard; says so for a moment (and to screen readers). Its name says what it
 * copies: "Copy <the id>", or `name` for a value too long to read out (a message's whole body).
 */
export function CopyButton({ value, label, name: fullName }: { value: string; label?: string; name?: string }) {
  const t = useTranslations("ui");
  const [copied, setCopied] = useState(false);
  const name = fullName ?? `${label ?? t("copy")} ${value}`;
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
      aria-label={name}
      title={copied ? t("copied") : name}
    >
      <span aria-live="polite" className="inline-flex align-middle">
        {copied ? (
          <svg viewBox="0 0 16 16" className="h-3.5 w-3.5" aria-hidden>
            <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="1.8" />
          </svg>
        ) : (
          <svg viewBox="0 0 16 16" className="h-3.5 w-3.5" aria-hidden>
            <rect x="5" y="5" width="8.5" height="8.5" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
            <path d="M3 10.5V3.5A1 1 0 0 1 4 2.5h6.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
          </svg>
        )}
      </span>
    </button>
  );
}
