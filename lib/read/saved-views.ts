import "server-only";
import type { Staff } from "@/lib/auth/staff";
import { listViews, type SavedView } from "@/lib/views/saved-views";
import { viewHref } from "@/lib/views/view-filters";

/** A saved view as the navigation lists it. */
export interface SidebarView {
  readonly id: number;
  readonly name: string;
  readonly href: string;
  /** The product a shared view is shared with. */
  readonly sharedWith: string | null;
}

export interface SidebarViews {
  readonly personal: readonly SidebarView[];
  readonly shared: readonly SidebarView[];
}

/**
 * The saved views under Orders in the navigation: the viewer's own, and those shared with their
 * products. Part of the frame's model (me.ts), read by the browser once per page load and kept (a
 * view changes when someone saves, renames or deletes one, and those forms read the frame again).
 */
export async function readSidebarViews(staff: Staff): Promise<SidebarViews> {
  const views = await listViews(staff);
  return { personal: views.personal.map(sidebarView), shared: views.shared.map(sidebarView) };
}

function sidebarView(view: SavedView): SidebarView {
  return { id: view.id, name: view.name, href: viewHref(view), sharedWith: view.shared ? view.tenantId : null };
}
