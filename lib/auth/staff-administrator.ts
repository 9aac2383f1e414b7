import "server-only";
import { AppError } from "@/lib/errors";
import { ROLES, type Role } from "./permissions";
import { administers, inScope } from "./scope";
import { actorOf, type Staff } from "./staff";

/**
 * Who changes staff accounts, and so how far they reach. A staff member (an admin in the console)
 * is held to their own role and tenants; the operator (the CLI, run by someone who holds the
 * database anyway) reaches everything. A separate kind rather than a wildcard tenant list, so an
 * operator can never be mistaken for a staff member, nor a staff member promoted by a list.
 */
export type StaffAdministrator =
  | { readonly kind: "staff"; readonly id: number; readonly actor: string; readonly role: Role; readonly tenantIds: readonly string[] }
  | { readonly kind: "operator"; readonly actor: string };

export function administratorOf(staff: Staff): StaffAdministrator {
  return { kind: "staff", id: staff.id, actor: actorOf(staff), role: staff.role, tenantIds: staff.tenantIds };
}

export function operator(actor: string): StaffAdministrator {
  return { kind: "operator", actor };
}

// ROLES runs from the least to the most: agent < ops < manager < admin.
const rank = (role: Role): number => ROLES.indexOf(role);

/** The roles an administrator may hand out: up to their own. */
export function grantableRoles(by: StaffAdministrator): Role[] {
  return by.kind === "operator" ? [...ROLES] : ROLES.filter((role) => rank(role) <= rank(by.role));
}

/** A staff administrator hands out at most their own role. */
export function assertMayGrantRole(by: StaffAdministrator, role: Role): void {
  if (by.kind === "staff" && rank(role) > rank(by.role)) throw new AppError("forbidden", { kind: "role-beyond-own", role, own: by.role });
}

/** A staff administrator hands out only tenants they have themselves. */
export function assertMayGrantTenants(by: StaffAdministrator, tenantIds: readonly string[]): void {
  if (by.kind === "operator") return;
  const beyond = tenantIds.filter((t) => !inScope(by, t));
  if (beyond.length > 0) throw new AppError("forbidden", { kind: "tenants-beyond-scope", tenants: beyond });
}

/** Whether `by` may see and change an account with these tenants. */
export function reaches(by: StaffAdministrator, tenantIds: readonly string[]): boolean {
  return by.kind === "operator" || administers(by, tenantIds);
}
