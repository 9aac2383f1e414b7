import type { ReactNode } from "react";
import { ConsoleHeader } from "@/components/console-header";
import type { Staff } from "@/lib/auth/staff";
import { ConsoleSidebar } from "./console-sidebar";

/**
 * The frame of every signed-in page: the header across the top, the navigation on the left (above
 * the content on narrow screens, folded), the page beside it. Also worn by the not-found page of
 * URLs no route knows, so a dead end still has the search box and the way back.
 */
export function ConsoleFrame({ staff, children }: { staff: Staff; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <ConsoleHeader staff={staff} />
      <div className="flex flex-1 flex-col lg:flex-row">
        <aside className="border-b border-slate-200 bg-white lg:w-56 lg:shrink-0 lg:border-b-0 lg:border-r">
          <ConsoleSidebar staff={staff} />
        </aside>
        <div className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8">
          <div className="mx-auto max-w-7xl">{children}</div>
        </div>
      </div>
    </div>
  );
}
