import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import { ConsoleHeader } from "@/components/console-header";
import type { Staff } from "@/lib/auth/staff";
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
 */
export function ConsoleFrame({ staff, children }: { staff: Staff; children: ReactNode }) {
  const t = useTranslations("nav");
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href={`#${MAIN_CONTENT_ID}`}
        className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-50 focus:rounded-md focus:bg-slate-900 focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-white"
      >
        {t("skipToContent")}
      </a>
      <ConsoleHeader staff={staff} />
      <div className="flex flex-1 flex-col lg:flex-row">
        <aside className="border-b border-slate-200 bg-white lg:w-56 lg:shrink-0 lg:border-b-0 lg:border-r">
          <ConsoleSidebar role={staff.role} />
        </aside>
        {/* tabIndex -1: the skip link moves the focus here, so the next Tab goes into the page. */}
        <main id={MAIN_CONTENT_ID} tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8">
          <div className="mx-auto max-w-7xl">{children}</div>
        </main>
      </div>
    </div>
  );
}
