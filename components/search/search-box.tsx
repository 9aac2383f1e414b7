"use client";

import Form from "next/form";
import { useTranslations } from "next-intl";
import { useRef } from "react";
import { useShortcut } from "@/components/ui/keyboard";
import { SHORTCUT_KEYS } from "@/lib/keyboard/shortcuts";

/**
 * Find an order by what was pasted (any id the console shows: see termHits): /search goes straight to the order when exactly one in the caller's products matches, and to
 * the orders list with the term otherwise. A plain GET form: works before JavaScript, and the URL
 * is the search. The header's box (`shortcut`) is focused by "/" (the keyboard layer, components/ui/keyboard.tsx).
 */
export function SearchBox({ id, variant, shortcut = false, autoFocus = false }: { id: string; variant: "header" | "page"; shortcut?: boolean; autoFocus?: boolean }) {
  const t = useTranslations("search");
  const input = useRef<HTMLInputElement>(null);
  useShortcut(
    "search",
    () => {
      input.current?.focus();
      input.current?.select();
    },
    shortcut,
  );
  const header = variant === "header";
  return (
    <Form action="/search" prefetch={false} role="search" aria-label={header ? t("headerLabel") : t("pageLabel")} className="w-full">
      <div className="flex items-center gap-2">
        <label htmlFor={id} className="sr-only">
          {t("field")}
        </label>
        <div className="relative min-w-0 flex-1">
          <input
            ref={input}
            id={id}
            name="q"
            type="search"
            required
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
            autoFocus={autoFocus}
            placeholder={t("placeholder")}
            aria-keyshortcuts={shortcut ? SHORTCUT_KEYS.search : undefined}
            aria-describedby={header ? undefined : `${id}-hint`}
            className={`w-full rounded-md border border-slate-300 bg-white font-mono text-sm shadow-sm placeholder:font-sans placeholder:text-slate-500 focus:border-slate-900 focus:outline-none focus:ring-1 focus:ring-slate-900 ${header ? "py-1.5 pl-3 pr-8" : "px-3 py-2.5"}`}
          />
          {shortcut ? (
            <kbd aria-hidden className="pointer-events-none absolute right-2 top-1/2 -translate-y-1/2 rounded border border-slate-300 bg-slate-50 px-1.5 font-mono text-xs text-slate-500">
              /
            </kbd>
          ) : null}
        </div>
        <button
          type="submit"
          className={`whitespace-nowrap rounded-md bg-slate-900 text-sm font-medium text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 ${header ? "px-3 py-1.5" : "px-4 py-2.5"}`}
        >
          {t("submit")}
        </button>
      </div>
      {header ? null : (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {t("hint")}
        </p>
      )}
    </Form>
  );
}
