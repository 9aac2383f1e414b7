"use client";

import { navFor } from "@/lib/navigation/nav-items";
import type { Me } from "@/lib/read/me";
import { SidebarNav } from "./sidebar-nav";

/**
 * The left navigation of every console page: the role's sections, and the saved views under Orders,
 * both from the frame's read model (null until the browser has read it).
 */
export function ConsoleSidebar({ staff }: { staff: Me | null }) {
  if (staff === null) return <div className="h-10 lg:h-auto" aria-busy="true" />;
  return <SidebarNav sections={navFor(staff.role)} views={staff.views} />;
}
