import { can } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";
import { listViews, type SavedView } from "@/lib/views/saved-views";
import { viewHref } from "@/lib/views/view-filters";
import { navFor } from "@/lib/navigation/nav-items";
import { SidebarNav, type SidebarView } from "./sidebar-nav";

function sidebarView(view: SavedView): SidebarView {
  return { id: view.id, name: view.name, href: viewHref(view), sharedWith: view.shared ? view.tenantId : null };
}

/** The left navigation of every console page: the role's sections, and the saved views under Orders. */
export async function ConsoleSidebar({ staff }: { staff: Staff }) {
  const views = can(staff.role, "orders:view") ? await listViews(staff) : { personal: [], shared: [] };
  return <SidebarNav sections={navFor(staff.role)} views={{ personal: views.personal.map(sidebarView), shared: views.shared.map(sidebarView) }} />;
}
