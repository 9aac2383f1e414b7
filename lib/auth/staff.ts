import "server-only";
import { getPool } from "@/lib/db/pool";
import { isRole, type Role } from "./permissions";

export interface Staff {
  readonly id: number;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly tenantIds: readonly string[];
  readonly locale: "en" | "zh";
  readonly tokenVersion: number;
}

/** How a staff member is named in order_transitions.actor and audit_events.actor. */
export function actorOf(staff: Pick<Staff, "email">): string {
  return `staff:${staff.email}`;
}

interface StaffRow extends Omit<Staff, "role"> {
  readonly role: string;
  readonly passwordHash: string;
  readonly disabled: boolean;
}

const COLUMNS = `id, email, name, role, tenant_ids AS "tenantIds", locale, token_version AS "tokenVersion",
  password_hash AS "passwordHash", disabled_at IS NOT NULL AS disabled`;

function toStaff(row: StaffRow): Staff {
  if (!isRole(row.role)) throw new Error(`staff user ${row.id} has unknown role ${row.role}`);
  const { passwordHash: _hash, disabled: _disabled, ...staff } = row;
  return { ...staff, role: row.role };
}

export async function findStaffForSignIn(email: string): Promise<(Staff & { passwordHash: string; disabled: boolean }) | null> {
  const { rows } = await getPool().query<StaffRow>(`SELECT ${COLUMNS} FROM staff_users WHERE email = lower($1)`, [email]);
  const row = rows[0];
  return row ? { ...toStaff(row), passwordHash: row.passwordHash, disabled: row.disabled } : null;
}

/**
 * The staff member behind a session, read fresh on every request: disabled users and sessions
 * minted before a change of role, scope or password (token_version) get nothing.
 */
export async function loadActiveStaff(id: number, tokenVersion: number): Promise<Staff | null> {
  const { rows } = await getPool().query<StaffRow>(
    `SELECT ${COLUMNS} FROM staff_users WHERE id = $1 AND token_version = $2 AND disabled_at IS NULL`,
    [id, tokenVersion],
  );
  return rows[0] ? toStaff(rows[0]) : null;
}
