import "server-only";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import type { Role } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";
import { administratorOf, grantableRoles } from "@/lib/auth/staff-administrator";
import { getStaffUser, listTenantChoices } from "@/lib/auth/users";
import type { TenantChoice } from "./new-staff-user";

/** One staff account as its page shows and edits it: never its password hash nor its session version. */
export interface StaffUserRecord {
  readonly id: number;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly tenantIds: readonly string[];
  readonly disabledAt: Date | null;
  readonly createdAt: Date;
}

/** The staff member page's read model: the account, and what the viewer may hand it. */
export interface StaffUserModel {
  readonly user: StaffUserRecord;
  readonly tenants: readonly TenantChoice[];
  /** The roles the viewer may hand out, and the account's own (kept, never granted, where it is above the viewer's). */
  readonly roles: readonly Role[];
  /** The viewer's own account: saving or resetting signs them out, and they cannot disable it. */
  readonly isSelf: boolean;
  readonly minPasswordLength: number;
}

/** The account `id`, already admitted by the route's scope rule (staffUserScope); null when it is gone. */
export async function readStaffUser(staff: Staff, id: number): Promise<StaffUserModel | null> {
  const by = administratorOf(staff);
  const [account, tenants] = await Promise.all([getStaffUser(id), listTenantChoices(by)]);
  if (!account) return null;
  const grantable = grantableRoles(by);
  const { email, name, role, tenantIds, disabledAt, createdAt } = account;
  return {
    user: { id: account.id, email, name, role, tenantIds, disabledAt, createdAt },
    tenants,
    roles: grantable.includes(role) ? grantable : [...grantable, role],
    isSelf: account.id === staff.id,
    minPasswordLength: MIN_PASSWORD_LENGTH,
  };
}
