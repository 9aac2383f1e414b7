"use client";

import { useQuery } from "@tanstack/react-query";
import { can, type Role } from "@/lib/auth/permissions";
import { navFor } from "@/lib/navigation/nav-items";
import type { SidebarViews } from "@/lib/read/saved-views";
import { readModel } from "@/lib/read/wire";
import { SidebarNav } from "./sidebar-nav";

/** The navigation's query: the saved views, read once and kept until a view form changes them. */
export const SAVED_VIEWS_KEY = ["saved-views"] as const;
const NONE: SidebarViews = { personal: [], shared: [] };

/**
 * The left navigation of every console page: the role's sections, and the saved views under Orders
 * (read from /api/console/views in the browser, not on every page's render).
 */
export function ConsoleSidebar({ role }: { role: Role | null }) {
  const seesOrders = role !== null && can(role, "orders:view");
  const { data } = useQuery({
    queryKey: SAVED_VIEWS_KEY,
    queryFn: ({ signal }) => readModel<SidebarViews>("/api/console/views", signal),
    enabled: seesOrders,
    staleTime: 5 * 60_000,
  });
  if (role === null) return <div className="h-10 lg:h-auto" aria-busy="true" />;
  return <SidebarNav sections={navFor(role)} views={data ?? NONE} />;
}
