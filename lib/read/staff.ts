import "server-only";
import type { Role } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";
import { administratorOf } from "@/lib/auth/staff-administrator";
import { listStaffUsers } from "@/lib/auth/users";

/** A staff account as the list shows it: never its password hash nor its session version. */
export interface StaffListItem {
  readonly id: number;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly tenantIds: readonly string[];
  readonly disabledAt: Date | null;
  readonly updatedAt: Date;
  /** The newest user.* audit event about this account (who last changed it, how, when). */
  readonly lastChange: { readonly action: string; readonly actor: string; readonly at: Date } | null;
}

/** The staff list's read model: the accounts the viewer administers (all their products within the viewer's own). */
export interface StaffListModel {
  readonly users: readonly StaffListItem[];
}

export async function readStaffList(staff: Staff): Promise<StaffListModel> {
  const users = await listStaffUsers(administratorOf(staff));
  return {
    users: users.map(({ id, email, name, role, tenantIds, disabledAt, updatedAt, lastChange }) => ({ id, email, name, role, tenantIds, disabledAt, updatedAt, lastChange })),
  };
}
