import "server-only";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import type { Role } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";
import { administratorOf, grantableRoles } from "@/lib/auth/staff-administrator";
import { listTenantChoices } from "@/lib/auth/users";

/** A product the viewer may hand out. */
export interface TenantChoice {
  readonly id: string;
  readonly name: string;
}

/**
 * The create form's read model: what the viewer may hand out (the action and createStaffUser
 * refuse the rest), and the password rule the form states.
 */
export interface NewStaffUserModel {
  readonly tenants: readonly TenantChoice[];
  readonly roles: readonly Role[];
  readonly minPasswordLength: number;
}

export async function readNewStaffUser(staff: Staff): Promise<NewStaffUserModel> {
  const by = administratorOf(staff);
  return { tenants: await listTenantChoices(by), roles: grantableRoles(by), minPasswordLength: MIN_PASSWORD_LENGTH };
}
