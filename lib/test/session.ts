import type { Role } from "@/lib/auth/permissions";
import type { Staff } from "@/lib/auth/staff";

// The signed-in staff member as tests choose it. lib/test/setup.ts mocks currentStaff() (next-auth
// needs a real request) to return this, for every test file; server actions and console routes
// then run their real permission, input and scope checks against it.

const state: { staff: Staff | null } = { staff: null };

export function currentTestStaff(): Staff | null {
  return state.staff;
}

/** Signs in as a staff member with `role`, scoped to `tenantIds`. Returns who that is. */
export function signInAs(role: Role, tenantIds: readonly string[], overrides: Partial<Staff> = {}): Staff {
  state.staff = { id: 1, email: `${role}@example.com`, name: role, role, tenantIds, locale: "en", tokenVersion: 0, ...overrides };
  return state.staff;
}

export function signOut(): void {
  state.staff = null;
}
