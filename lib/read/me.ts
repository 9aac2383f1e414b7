import "server-only";
import { can, type Role } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";
import type { Locale } from "@/lib/i18n/locales";
import { readSidebarViews, type SidebarViews } from "./saved-views";

/**
 * The console frame's read model, on every signed-in page: who is signed in (the header, which
 * sections the navigation shows, the language) and the saved views under Orders in the navigation.
 */
export interface Me {
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly locale: Locale;
  readonly views: SidebarViews;
}

const NO_VIEWS: SidebarViews = { personal: [], shared: [] };

/** The session's staff member, as loadActiveStaff() found them for this request, and their views. */
export async function readMe(staff: Staff): Promise<Me> {
  const views = can(staff.role, "orders:view") ? await readSidebarViews(staff) : NO_VIEWS;
  return { email: staff.email, name: staff.name, role: staff.role, locale: staff.locale, views };
}
