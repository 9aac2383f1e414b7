// Who sees and who may change a saved view. Pure: the scope rule (saved-view-scope.ts),
// the navigation and the orders page all ask here, so they cannot disagree.
import { can, type Role } from "@/lib/auth/permissions";

export interface ViewOwnership {
  readonly tenantId: string | null;
  readonly ownerId: number;
  readonly shared: boolean;
}

export interface Viewer {
  readonly id: number;
  readonly role: Role;
  readonly tenantIds: readonly string[];
}

/**
 * - `edit`: the caller may open, rename and delete it;
 * - `see`: a shared view of one of the caller's products, saved by someone else (a manager edits it);
 * - `out-of-scope`: its product is not the caller's (a personal view of a product the owner has
 *   since lost counts too: it would open on a filter the page refuses);
 * - `someone-else`: another person's personal view.
 * Both refusals answer like a view that does not exist.
 */
export type ViewAccess = "edit" | "see" | "out-of-scope" | "someone-else";

export function viewAccess(view: ViewOwnership, viewer: Viewer): ViewAccess {
  if (view.tenantId !== null && !viewer.tenantIds.includes(view.tenantId)) return "out-of-scope";
  if (!view.shared) return view.ownerId === viewer.id ? "edit" : "someone-else";
  return view.ownerId === viewer.id || can(viewer.role, "views:manage") ? "edit" : "see";
}
