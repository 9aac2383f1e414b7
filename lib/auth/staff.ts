import "server-only";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { maybeOne, prepared } from "@/lib/db/sql";
import type { StaffUser } from "@/lib/generated/prisma/client";
import { isLocale } from "@/lib/i18n/locales";
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

/**
 * A staff_users row as the app sees it. The database's CHECK constraints hold role and locale to
 * these values; a row that still breaks them is a bug worth failing loudly on, not a guest role.
 */
export function staffOf(row: Pick<StaffUser, "email" | "name" | "role" | "tenantIds" | "locale" | "tokenVersion"> & { readonly id: bigint | number }): Staff {
  if (!isRole(row.role)) throw new Error(`staff user ${row.id} has unknown role ${row.role}`);
  if (!isLocale(row.locale)) throw new Error(`staff user ${row.id} has unknown locale ${row.locale}`);
  return {
    id: Number(row.id),
    email: row.email,
    name: row.name,
    role: row.role,
    tenantIds: row.tenantIds,
    locale: row.locale,
    tokenVersion: row.tokenVersion,
  };
}

export async function findStaffForSignIn(email: string): Promise<(Staff & { passwordHash: string; disabled: boolean }) | null> {
  const row = await getPrisma().staffUser.findUnique({ where: { email: email.toLowerCase() } });
  return row ? { ...staffOf(row), passwordHash: row.passwordHash, disabled: row.disabledAt !== null } : null;
}

/**
 * The staff member behind a session, read fresh on every request: disabled users and sessions
 * minted before a change of role, scope or password (token_version) get nothing.
 */
export async function loadActiveStaff(id: number, tokenVersion: number): Promise<Staff | null> {
  const row = await maybeOne(getPool(), activeStaffRow, ACTIVE_STAFF, [id, tokenVersion]);
  return row ? staffOf(row) : null;
}

const activeStaffRow = z.object({
  id: z.coerce.number(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  tenantIds: z.array(z.string()),
  locale: z.string(),
  tokenVersion: z.number(),
});

/** Every console page and action reads it: prepared (lib/db/sql.ts), by primary key. */
const ACTIVE_STAFF = prepared(
  "auth.active-staff",
  `SELECT id, email, name, role, tenant_ids AS "tenantIds", locale, token_version AS "tokenVersion"
   FROM staff_users WHERE id = $1 AND token_version = $2 AND disabled_at IS NULL`,
);

/**
 * Ends every session of a staff member at once (sign-out): bumps token_version, which
 * loadActiveStaff checks on every request. Only a session still current can do it, so a cookie
 * already dead cannot sign its owner out of newer sessions. Returns whether a session ended.
 */
export async function revokeSessions(id: number, tokenVersion: number): Promise<boolean> {
  const { count } = await getPrisma().staffUser.updateMany({ where: { id, tokenVersion }, data: { tokenVersion: { increment: 1 } } });
  return count > 0;
}
