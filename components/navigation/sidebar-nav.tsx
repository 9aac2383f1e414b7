"use client";

import { Link } from "@/components/ui/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { Suspense, useId, useState } from "react";
import { isCurrent, type NavItem, type NavSection } from "@/lib/navigation/nav-items";
import type { SidebarViews } from "@/lib/read/saved-views";


const LINK = "flex items-center gap-2 rounded-md px-2.5 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900";
const IDLE = "text-slate-700 hover:bg-slate-100 hover:text-slate-900";
const ACTIVE = "bg-slate-900 text-white";

/**
 * The console's left navigation: sections by role, the page being shown marked (aria-current), the
 * saved views under Orders. Below the large breakpoint it folds into a "Menu" button, and folds
 * again after a link is followed (it stays open only on the path it was opened on).
 */
export function SidebarNav({
  sections,
  views,
}: {
  sections: readonly { readonly section: NavSection; readonly items: readonly NavItem[] }[];
  views: SidebarViews;
}) {
  const t = useTranslations("sidebar");
  const nav = useTranslations("nav");
  const pathname = usePathname();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === pathname;
  const listId = useId();
  return (
    <nav aria-label={nav("main")} className="lg:sticky lg:top-0 lg:max-h-screen lg:overflow-y-auto">
      <button
        type="button"
        className="flex w-full items-center gap-2 px-4 py-2 text-sm font-medium text-slate-800 lg:hidden"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpenAt(open ? null : pathname)}
      >
        <span aria-hidden className="text-base leading-none">
          {open ? "×" : "≡"}
        </span>
        {t("menu")}
      </button>
      <div id={listId} className={`${open ? "block" : "hidden"} space-y-5 px-3 pb-6 pt-2 lg:block lg:pt-5`}>
        {sections.map(({ section, items }) => (
          <div key={section}>
            <h2 className="px-2.5 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{t(`sections.${section}`)}</h2>
            <ul className="space-y-0.5">
              {items.map((item) => (
                <li key={item.href}>
                  {item.key === "orders" ? (
                    <Suspense fallback={<NavLink href={item.href} label={nav(item.key)} current={isCurrent(item.href, pathname)} />}>
                      <OrdersWithViews href={item.href} label={nav(item.key)} views={views} pathname={pathname} />
                    </Suspense>
                  ) : (
                    <NavLink href={item.href} label={nav(item.key)} current={isCurrent(item.href, pathname)} />
                  )}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}

function NavLink({ href, label, current, nested }: { href: string; label: string; current: boolean | "parent"; nested?: boolean }) {
  return (
    <Link
      href={href}
      aria-current={current === true ? "page" : undefined}
      className={`${LINK} ${nested ? "py-1 pl-6 text-[13px]" : ""} ${current === true ? ACTIVE : current === "parent" ? "bg-slate-100 font-medium text-slate-900" : IDLE}`}
    >
      <span className="min-w-0 truncate">{label}</span>
    </Link>
  );
}

/** Orders, and the saved views beneath it: the one being shown is the current page, not Orders. */
function OrdersWithViews({
  href,
  label,
  views,
  pathname,
}: {
  href: string;
  label: string;
  views: SidebarViews;
  pathname: string;
}) {
  const t = useTranslations("sidebar");
  const params = useSearchParams();
  const viewId = pathname === "/orders" ? params.get("view") : null;
  const all = [...views.personal, ...views.shared];
  const showing = all.some((v) => String(v.id) === viewId);
  const ordersCurrent = isCurrent(href, pathname);
  return (
    <>
      <NavLink href={href} label={label} current={ordersCurrent && !showing ? true : ordersCurrent ? "parent" : false} />
      {all.length > 0 ? (
        <div className="mt-1 space-y-2" data-testid="nav-saved-views">
          {(
            [
              ["personal", views.personal],
              ["shared", views.shared],
            ] as const
          ).map(([group, list]) =>
            list.length === 0 ? null : (
              <div key={group}>
                <p className="pl-6 text-[11px] font-medium text-slate-500">{t(`views.${group}`)}</p>
                <ul className="space-y-0.5">
                  {list.map((view) => (
                    <li key={view.id} title={view.sharedWith ? t("views.sharedWith", { tenant: view.sharedWith }) : undefined}>
                      <NavLink href={view.href} label={view.name} current={String(view.id) === viewId} nested />
                    </li>
                  ))}
                </ul>
              </div>
            ),
          )}
        </div>
      ) : null}
    </>
  );
}
