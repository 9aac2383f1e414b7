import "server-only";
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { z } from "zod";
import { audit, type AuditAction } from "@/lib/audit/record";
import { getPool } from "@/lib/db/pool";
import { getPrisma, type PrismaTx } from "@/lib/db/prisma";
import { isUniqueViolation } from "@/lib/db/retry";
import { one, rows } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { AppError, invalidField } from "@/lib/errors";
import type { StaffUser } from "@/lib/generated/prisma/client";
import { LOCALES } from "@/lib/i18n/locales";
import { hashPassword, MIN_PASSWORD_LENGTH } from "./passwords";
import { isRole, ROLES, type Role } from "./permissions";
import { assertMayGrantRole, assertMayGrantTenants, reaches, type StaffAdministrator } from "./staff-administrator";
import { staffOf, type Staff } from "./staff";

// Staff accounts as the admin screens and the CLI see them. Every change bumps token_version, so
// sessions minted before it stop working on their next request (loadActiveStaff checks it), and
// writes an audit_events row with what the account looked like before and after — in the same
// transaction, so there is never a change without its audit row. Passwords and hashes never go
// into the audit detail.
//
// Staff administration is scoped: an admin reaches only accounts whose tenants are all within
// their own, and grants at most their own role and tenants — so a scoped admin can neither make an
// admin for another tenant nor widen their own scope. Every function here takes who is acting
// (lib/auth/staff-administrator.ts) and checks it under the staff-change lock, so no caller can
// forget the rules and no concurrent change can slip between check and write.

export interface StaffAccount extends Staff {
  readonly disabledAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface StaffAccountListItem extends StaffAccount {
  /** The newest user.* audit event about this account (who last changed it, how, when). */
  readonly lastChange: { readonly action: string; readonly actor: string; readonly at: Date } | null;
}

export interface NewStaffUser {
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly tenantIds: readonly string[];
  readonly password: string;
}

export interface StaffUserChanges {
  readonly role?: Role;
  readonly tenantIds?: readonly string[];
  readonly name?: string;
}

export type StaffUserField = keyof StaffUserChanges;

export interface StaffChange {
  readonly account: StaffAccount;
  /** Empty when the account already looked like that: nothing written, no session ended. */
  readonly changed: readonly StaffUserField[];
}

export interface StaffStatusChange {
  readonly account: StaffAccount;
  readonly changed: boolean;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// bcrypt reads only the first 72 bytes; a longer password would silently match its own prefix.
const MAX_PASSWORD_BYTES = 72;

// All staff-account changes run one at a time. Without this, two admins disabling (or demoting)
// each other at the same moment would each see the other as "another active admin", both commit,
// and leave nobody able to manage staff. Account changes are rare, so a global lock costs nothing.
const STAFF_CHANGE_LOCK = 0x5354_4146; // "STAF"

/** How an account is named in audit_events.target (the same form as actorOf() for the actor). */
export function staffTarget(email: string): string {
  return `staff:${email}`;
}

/** A strong password for hand-over: 24 url-safe characters (144 random bits). */
export function generateStaffPassword(): string {
  return randomBytes(18).toString("base64url");
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toAccount(row: StaffUser): StaffAccount {
  return { ...staffOf(row), disabledAt: row.disabledAt, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw invalidField("password", { kind: "too-short", min: MIN_PASSWORD_LENGTH });
  if (Buffer.byteLength(password, "utf8") > MAX_PASSWORD_BYTES) throw invalidField("password", { kind: "password-too-long", max: MAX_PASSWORD_BYTES });
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalidField("name", { kind: "required" });
  return trimmed;
}

function checkRole(role: unknown): Role {
  if (!isRole(role)) throw invalidField("role", { kind: "invalid-choice", options: ROLES });
  return role;
}

/** Stored sorted and without repeats, so "did the scope change?" is a plain comparison. */
function normalizeTenants(tenantIds: readonly string[]): string[] {
  return [...new Set(tenantIds.map((t) => t.trim()).filter(Boolean))].sort();
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

const lockedAt = z.object({ now: z.coerce.date() });

/**
 * Takes the staff-change lock; returns the transaction's clock (what now() in an UPDATE would
 * have written), so the timestamps written through Prisma come from the database, not this host.
 */
async function lockStaffChanges(client: pg.PoolClient): Promise<Date> {
  return (await one(client, lockedAt, `SELECT pg_advisory_xact_lock($1), now() AS now`, [STAFF_CHANGE_LOCK])).now;
}

async function assertTenantsExist(prisma: PrismaTx, tenantIds: readonly string[]): Promise<void> {
  if (tenantIds.length === 0) return;
  const known = new Set((await prisma.tenant.findMany({ where: { id: { in: [...tenantIds] } }, select: { id: true } })).map((t) => t.id));
  const missing = tenantIds.filter((t) => !known.has(t));
  if (missing.length > 0) throw new AppError("invalid-input", { kind: "unknown-tenants", tenants: missing });
}

/**
 * The account to change, read under the staff-change lock. No FOR UPDATE: every write of what is
 * decided on here (role, tenants, status, token_version, password) runs under that same lock, and
 * the one other writer of staff_users (a staff member's own locale) touches none of it — so this
 * read stays true until commit. The action's scope rule resolved the account before the
 * transaction; it is checked again here because another admin may have widened its tenants since.
 */
async function loadAdministered(prisma: PrismaTx, id: number, by: StaffAdministrator): Promise<StaffAccount> {
  const row = await prisma.staffUser.findUnique({ where: { id } });
  if (!row || !reaches(by, row.tenantIds)) throw new AppError("not-found");
  return toAccount(row);
}

/** Refuses a change that would leave no active admin (nobody could manage staff any more). */
async function assertAnotherActiveAdmin(prisma: PrismaTx, account: StaffAccount): Promise<void> {
  const others = await prisma.staffUser.count({ where: { role: "admin", disabledAt: null, id: { not: account.id } } });
  if (others === 0) throw new AppError("conflict", { kind: "last-admin", email: account.email });
}

async function record(
  prisma: PrismaTx,
  by: StaffAdministrator,
  action: AuditAction,
  account: Pick<StaffAccount, "email">,
  detail: Record<string, unknown>,
): Promise<void> {
  await audit({ actor: by.actor, action, target: staffTarget(account.email), detail }, prisma);
}

function pick(account: StaffAccount, fields: readonly (keyof StaffAccount)[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, account[f] instanceof Date ? (account[f] as Date).toISOString() : account[f]]));
}

export async function createStaffUser(input: NewStaffUser, by: StaffAdministrator): Promise<StaffAccount> {
  const email = normalizeEmail(input.email);
  if (!EMAIL_PATTERN.test(email) || email.length > 254) throw invalidField("email", { kind: "invalid-email" });
  const name = checkName(input.name);
  const role = checkRole(input.role);
  const tenantIds = normalizeTenants(input.tenantIds);
  // The role rule lives only here. Foreign tenants the console action already refuses (its
  // grantedTenantsScope, audited); checking them again keeps every other caller to the same rule.
  assertMayGrantRole(by, role);
  assertMayGrantTenants(by, tenantIds);
  checkPassword(input.password);
  // Hashing takes ~0.1 s: done before the transaction so no lock waits on it.
  const passwordHash = await hashPassword(input.password);

  const taken = () => new AppError("conflict", { kind: "email-taken", email });
  try {
    return await transaction(
      async ({ client, prisma }) => {
        const now = await lockStaffChanges(client);
        await assertTenantsExist(prisma, tenantIds);
        if (await prisma.staffUser.findUnique({ where: { email }, select: { id: true } })) throw taken();
        const account = toAccount(
          await prisma.staffUser.create({ data: { email, name, passwordHash, role, tenantIds, createdAt: now, updatedAt: now } }),
        );
        await record(prisma, by, "user.created", account, { after: pick(account, ["email", "name", "role", "tenantIds"]) });
        return account;
      },
      { prisma: true },
    );
  } catch (error) {
    // The unique index is the backstop for anything that inserts without the lock (the demo seed).
    if (isUniqueViolation(error, "staff_users_email_key")) throw taken();
    throw error;
  }
}

const listRow = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  tenantIds: z.array(z.string()),
  locale: z.enum(LOCALES),
  tokenVersion: z.number(),
  disabledAt: z.coerce.date().nullable(),
  createdAt: z.coerce.date(),
  updatedAt: z.coerce.date(),
  lastAction: z.string().nullable(),
  lastActor: z.string().nullable(),
  lastAt: z.coerce.date().nullable(),
});

/**
 * The accounts `by` administers, by email, each with its newest user.* audit event. Raw SQL: Prisma
 * can say neither "tenants contained in" (<@) nor the per-account lateral lookup.
 */
export async function listStaffUsers(by: StaffAdministrator): Promise<StaffAccountListItem[]> {
  const list = await rows(
    getPool(),
    listRow,
    `SELECT u.id, u.email, u.name, u.role, u.tenant_ids AS "tenantIds", u.locale, u.token_version AS "tokenVersion",
            u.disabled_at AS "disabledAt", u.created_at AS "createdAt", u.updated_at AS "updatedAt",
            last.action AS "lastAction", last.actor AS "lastActor", last.created_at AS "lastAt"
     FROM staff_users u
     LEFT JOIN LATERAL (
       SELECT action, actor, created_at FROM audit_events
       WHERE target = 'staff:' || u.email AND action LIKE 'user.%'
       ORDER BY created_at DESC, id DESC LIMIT 1
     ) last ON true
     WHERE $1::text[] IS NULL OR u.tenant_ids <@ $1::text[]
     ORDER BY u.email`,
    [by.kind === "operator" ? null : [...by.tenantIds]],
  );
  return list.map(({ lastAction, lastActor, lastAt, ...account }) => ({
    ...account,
    lastChange: lastAction && lastActor && lastAt ? { action: lastAction, actor: lastActor, at: lastAt } : null,
  }));
}

export async function getStaffUser(id: number): Promise<StaffAccount | null> {
  const row = await getPrisma().staffUser.findUnique({ where: { id } });
  return row ? toAccount(row) : null;
}

export async function findStaffUserByEmail(email: string): Promise<StaffAccount | null> {
  const row = await getPrisma().staffUser.findUnique({ where: { email: normalizeEmail(email) } });
  return row ? toAccount(row) : null;
}

/** The tenants `by` may hand out (the forms' checkboxes). */
export async function listTenantChoices(by: StaffAdministrator): Promise<{ id: string; name: string }[]> {
  return getPrisma().tenant.findMany({
    where: by.kind === "operator" ? {} : { id: { in: [...by.tenantIds] } },
    select: { id: true, name: true },
    orderBy: { id: "asc" },
  });
}

export async function updateStaffUser(id: number, changes: StaffUserChanges, by: StaffAdministrator): Promise<StaffChange> {
  const newName = changes.name === undefined ? undefined : checkName(changes.name);
  const newRole = changes.role === undefined ? undefined : checkRole(changes.role);
  return transaction(
    async ({ client, prisma }) => {
      const now = await lockStaffChanges(client);
      const before = await loadAdministered(prisma, id, by);
      const name = newName ?? before.name;
      const role = newRole ?? before.role;
      const tenantIds = changes.tenantIds === undefined ? [...before.tenantIds] : normalizeTenants(changes.tenantIds);

      const changed: StaffUserField[] = [];
      if (name !== before.name) changed.push("name");
      if (role !== before.role) changed.push("role");
      if (!sameList(tenantIds, before.tenantIds)) changed.push("tenantIds");
      if (changed.length === 0) return { account: before, changed };

      // Their own account too: an admin adding a tenant they lack to themselves is beyond their scope.
      if (changed.includes("role")) assertMayGrantRole(by, role);
      if (changed.includes("tenantIds")) {
        assertMayGrantTenants(by, tenantIds);
        await assertTenantsExist(prisma, tenantIds);
      }
      if (before.role === "admin" && role !== "admin" && before.disabledAt === null) await assertAnotherActiveAdmin(prisma, before);
      const after = toAccount(
        await prisma.staffUser.update({
          where: { id },
          data: { name, role, tenantIds, tokenVersion: { increment: 1 }, updatedAt: now },
        }),
      );
      const fields: (keyof StaffAccount)[] = [...changed, "tokenVersion"];
      await record(prisma, by, "user.updated", after, { before: pick(before, fields), after: pick(after, fields) });
      return { account: after, changed };
    },
    { prisma: true },
  );
}

/**
 * Disables or re-enables an account. A disabled account cannot sign in and its open sessions end at
 * once. Nobody may disable themselves, and the last active admin cannot be disabled.
 */
export async function setStaffDisabled(id: number, disabled: boolean, by: StaffAdministrator): Promise<StaffStatusChange> {
  return transaction(
    async ({ client, prisma }) => {
      const now = await lockStaffChanges(client);
      const before = await loadAdministered(prisma, id, by);
      if ((before.disabledAt !== null) === disabled) return { account: before, changed: false };
      if (disabled) {
        if (by.kind === "staff" && by.id === before.id) throw new AppError("conflict", { kind: "cannot-disable-self" });
        if (before.role === "admin") await assertAnotherActiveAdmin(prisma, before);
      }
      const after = toAccount(
        await prisma.staffUser.update({
          where: { id },
          data: { disabledAt: disabled ? now : null, tokenVersion: { increment: 1 }, updatedAt: now },
        }),
      );
      const fields: (keyof StaffAccount)[] = ["disabledAt", "tokenVersion"];
      await record(prisma, by, disabled ? "user.disabled" : "user.enabled", after, { before: pick(before, fields), after: pick(after, fields) });
      return { account: after, changed: true };
    },
    { prisma: true },
  );
}

/** Sets a new password; every open session of the account ends. */
export async function resetStaffPassword(id: number, newPassword: string, by: StaffAdministrator): Promise<StaffAccount> {
  checkPassword(newPassword);
  const passwordHash = await hashPassword(newPassword);
  return transaction(
    async ({ client, prisma }) => {
      const now = await lockStaffChanges(client);
      const before = await loadAdministered(prisma, id, by);
      const after = toAccount(
        await prisma.staffUser.update({ where: { id }, data: { passwordHash, tokenVersion: { increment: 1 }, updatedAt: now } }),
      );
      await record(prisma, by, "user.password-reset", after, { before: pick(before, ["tokenVersion"]), after: pick(after, ["tokenVersion"]) });
      return after;
    },
    { prisma: true },
  );
}
