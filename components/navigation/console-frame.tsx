"use client";

import { useQuery } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, type ReactNode } from "react";
import { ConsoleHeader } from "@/components/console-header";
import { KeyboardProvider } from "@/components/ui/keyboard";
import { retryRead, showReadRefusal } from "@/components/errors/read-refused";
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, type Locale } from "@/lib/i18n/locales";
import type { Me } from "@/lib/read/me";
import { readModel } from "@/lib/read/wire";
import { ConsoleSidebar } from "./console-sidebar";

/** The id of the page's main landmark: the skip link's target. */
export const MAIN_CONTENT_ID = "main-content";

/**
 * The frame of every signed-in page: the header across the top, the navigation on the left (above
 * the content on narrow screens, folded), the page beside it. Also worn by the not-found page of
 * URLs no route knows, so a dead end still has the search box and the way back.
 *
 * The page is the one main landmark, here and nowhere else (a page that brought its own would nest
 * a second one, and a page that forgot would have none). The skip link is the first Tab stop:
 * without it a keyboard user tabs through the header and the whole navigation on every page.
 *
 * Who is signed in, and the saved views the navigation lists, are read by the browser
 * (/api/console/me, kept for a minute across pages), so the frame is the same HTML for everyone and
 * a page's shell can be a file; until it is there, the header and the navigation hold their place.
 */
export function ConsoleFrame({ children }: { children: ReactNode }) {
  const t = useTranslations("nav");
  const { data: staff, error } = useMe();
  useFollowLanguage(staff?.locale);
  if (error) showReadRefusal(error, `${location.pathname}${location.search}`, "profile:edit");
  return (
    // The keys (j/k, Enter, /, ?, the page's own) are one layer for every page in the frame.
    <KeyboardProvider>
      <div className="flex min-h-screen flex-col">
        <a
          href={`#${MAIN_CONTENT_ID}`}
          className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-50 focus:rounded-md focus:bg-slate-900 focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-white"
        >
          {t("skipToContent")}
        </a>
        <ConsoleHeader staff={staff ?? null} />
        <div className="flex flex-1 flex-col lg:flex-row">
          <aside className="border-b border-slate-200 bg-white lg:w-56 lg:shrink-0 lg:border-b-0 lg:border-r">
            <ConsoleSidebar staff={staff ?? null} />
          </aside>
          {/* tabIndex -1: the skip link moves the focus here, so the next Tab goes into the page. */}
          <main id={MAIN_CONTENT_ID} tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8">
            <div className="mx-auto max-w-7xl">{children}</div>
          </main>
        </div>
      </div>
    </KeyboardProvider>
  );
}

/** The frame's query; read again when a saved view changes (components/views/views-changed.ts). */
export const ME_KEY = ["me"] as const;

/** Who is signed in and their saved views, read once and kept for a minute across pages (lib/read/me.ts). */
export function useMe() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: ({ signal }) => readModel<Me>("/api/console/me", signal),
    staleTime: 60_000,
    retry: retryRead,
  });
}

/**
 * The pages are in the language of the locale cookie (proxy.ts), which signing in and the language
 * switch set to the account's; a browser whose cookie says otherwise (signed in elsewhere since, or
 * the cookie cleared) takes the account's language and loads the page again in it, once.
 */
function useFollowLanguage(account: Locale | undefined) {
  const shown = useLocale();
  useEffect(() => {
    if (account === undefined || account === shown) return;
    document.cookie = `${LOCALE_COOKIE}=${account}; path=/; max-age=${LOCALE_COOKIE_MAX_AGE}; samesite=lax`;
    if (document.cookie.includes(`${LOCALE_COOKIE}=${account}`)) location.reload();
  }, [account, shown]);
}
