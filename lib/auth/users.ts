import "server-only";
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { audit, type AuditAction } from "@/lib/audit/record";
import { getPool, isUniqueViolation, withTransaction } from "@/lib/db/pool";
import { AppError } from "@/lib/errors";
import { hashPassword, MIN_PASSWORD_LENGTH } from "./passwords";
import { isRole, type Role } from "./permissions";
import type { Staff } from "./staff";

// Staff accounts as the admin screens and the CLI see them. Every change bumps token_version, so
// sessions minted before it stop working on their next request (loadActiveStaff checks it), and
// writes an audit_events row with what the account looked like before and after — in the same
// transaction, so there is never a change without its audit row. Passwords and hashes never go
// into the audit detail.

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

interface AccountRow extends Omit<StaffAccount, "role"> {
  readonly role: string;
}

const COLUMNS = `id, email, name, role, tenant_ids AS "tenantIds", locale, token_version AS "tokenVersion",
  disabled_at AS "disabledAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

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

function toAccount(row: AccountRow): StaffAccount {
  if (!isRole(row.role)) throw new Error(`staff user ${row.id} has unknown role ${row.role}`);
  return { ...row, role: row.role };
}

function invalid(field: string, message: string): AppError {
  return new AppError("invalid-input", message, { fields: { [field]: [message] } });
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw invalid("password", `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
  }
  if (Buffer.byteLength(password, "utf8") > MAX_PASSWORD_BYTES) {
    throw invalid("password", `The password must be at most ${MAX_PASSWORD_BYTES} bytes long.`);
  }
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalid("name", "Enter a name.");
  return trimmed;
}

/** Stored sorted and without repeats, so "did the scope change?" is a plain comparison. */
function normalizeTenants(tenantIds: readonly string[]): string[] {
  return [...new Set(tenantIds.map((t) => t.trim()).filter(Boolean))].sort();
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

async function lockStaffChanges(client: pg.PoolClient): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock($1)`, [STAFF_CHANGE_LOCK]);
}

async function assertTenantsExist(client: pg.PoolClient, tenantIds: readonly string[]): Promise<void> {
  if (tenantIds.length === 0) return;
  const { rows } = await client.query<{ id: string }>(`SELECT id FROM tenants WHERE id = ANY($1::text[])`, [tenantIds]);
  const known = new Set(rows.map((r) => r.id));
  const missing = tenantIds.filter((t) => !known.has(t));
  if (missing.length > 0) {
    throw invalid("tenantIds", `Unknown tenant${missing.length === 1 ? "" : "s"}: ${missing.join(", ")}.`);
  }
}

async function loadForUpdate(client: pg.PoolClient, id: number): Promise<StaffAccount> {
  const { rows } = await client.query<AccountRow>(`SELECT ${COLUMNS} FROM staff_users WHERE id = $1 FOR UPDATE`, [id]);
  if (!rows[0]) throw new AppError("not-found", `No staff user with id ${id}.`);
  return toAccount(rows[0]);
}

/** Refuses a change that would leave no active admin (nobody could manage staff any more). */
async function assertAnotherActiveAdmin(client: pg.PoolClient, account: StaffAccount, doing: string): Promise<void> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM staff_users WHERE role = 'admin' AND disabled_at IS NULL AND id <> $1`,
    [account.id],
  );
  if (rows[0]!.n === 0) {
    throw new AppError("conflict", `${account.email} is the last active admin; make another admin before ${doing}.`);
  }
}

async function record(
  client: pg.PoolClient,
  actor: string,
  action: AuditAction,
  account: Pick<StaffAccount, "email">,
  detail: Record<string, unknown>,
): Promise<void> {
  await audit({ actor, action, target: staffTarget(account.email), detail }, client);
}

function pick(account: StaffAccount, fields: readonly (keyof StaffAccount)[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, account[f] instanceof Date ? (account[f] as Date).toISOString() : account[f]]));
}

export async function createStaffUser(input: NewStaffUser, actor: string): Promise<StaffAccount> {
  const email = normalizeEmail(input.email);
  if (!EMAIL_PATTERN.test(email)) throw invalid("email", "Enter a valid email address.");
  const name = checkName(input.name);
  if (!isRole(input.role)) throw invalid("role", `Unknown role: ${String(input.role)}.`);
  const tenantIds = normalizeTenants(input.tenantIds);
  checkPassword(input.password);
  // Hashing takes ~0.1 s: done before the transaction so no lock waits on it.
  const passwordHash = await hashPassword(input.password);

  const conflict = () => new AppError("conflict", `A staff user with the email ${email} already exists.`);
  try {
    return await withTransaction(async (client) => {
      await lockStaffChanges(client);
      await assertTenantsExist(client, tenantIds);
      const existing = await client.query(`SELECT 1 FROM staff_users WHERE email = $1`, [email]);
      if (existing.rowCount) throw conflict();
      const { rows } = await client.query<AccountRow>(
        `INSERT INTO staff_users (email, name, password_hash, role, tenant_ids) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
        [email, name, passwordHash, input.role, tenantIds],
      );
      const account = toAccount(rows[0]!);
      await record(client, actor, "user.created", account, { after: pick(account, ["email", "name", "role", "tenantIds"]) });
      return account;
    });
  } catch (error) {
    // The unique index is the backstop for anything that inserts without the lock (the demo seed).
    if (isUniqueViolation(error, "staff_users_email_key")) throw conflict();
    throw error;
  }
}

export async function listStaffUsers(): Promise<StaffAccountListItem[]> {
  const { rows } = await getPool().query<AccountRow & { lastAction: string | null; lastActor: string | null; lastAt: Date | null }>(
    `SELECT u.*, last.action AS "lastAction", last.actor AS "lastActor", last.created_at AS "lastAt"
     FROM (SELECT ${COLUMNS} FROM staff_users) u
     LEFT JOIN LATERAL (
       SELECT action, actor, created_at FROM audit_events
       WHERE target = 'staff:' || u.email AND action LIKE 'user.%'
       ORDER BY created_at DESC, id DESC LIMIT 1
     ) last ON true
     ORDER BY u.email`,
  );
  return rows.map(({ lastAction, lastActor, lastAt, ...row }) => ({
    ...toAccount(row),
    lastChange: lastAction && lastActor && lastAt ? { action: lastAction, actor: lastActor, at: lastAt } : null,
  }));
}

export async function getStaffUser(id: number): Promise<StaffAccount | null> {
  const { rows } = await getPool().query<AccountRow>(`SELECT ${COLUMNS} FROM staff_users WHERE id = $1`, [id]);
  return rows[0] ? toAccount(rows[0]) : null;
}

export async function findStaffUserByEmail(email: string): Promise<StaffAccount | null> {
  const { rows } = await getPool().query<AccountRow>(`SELECT ${COLUMNS} FROM staff_users WHERE email = $1`, [normalizeEmail(email)]);
  return rows[0] ? toAccount(rows[0]) : null;
}

/** The tenants a staff member can be scoped to (the edit form's checkboxes). */
export async function listTenantChoices(): Promise<{ id: string; name: string }[]> {
  const { rows } = await getPool().query<{ id: string; name: string }>(`SELECT id, name FROM tenants ORDER BY id`);
  return rows;
}

export async function updateStaffUser(id: number, changes: StaffUserChanges, actor: string): Promise<StaffChange> {
  return withTransaction(async (client) => {
    await lockStaffChanges(client);
    const before = await loadForUpdate(client, id);
    const name = changes.name === undefined ? before.name : checkName(changes.name);
    if (changes.role !== undefined && !isRole(changes.role)) throw invalid("role", `Unknown role: ${String(changes.role)}.`);
    const role = changes.role ?? before.role;
    const tenantIds = changes.tenantIds === undefined ? before.tenantIds : normalizeTenants(changes.tenantIds);

    const changed: StaffUserField[] = [];
    if (name !== before.name) changed.push("name");
    if (role !== before.role) changed.push("role");
    if (!sameList(tenantIds, before.tenantIds)) changed.push("tenantIds");
    if (changed.length === 0) return { account: before, changed };

    if (changed.includes("tenantIds")) await assertTenantsExist(client, tenantIds);
    if (before.role === "admin" && role !== "admin" && before.disabledAt === null) {
      await assertAnotherActiveAdmin(client, before, "changing their role");
    }
    const { rows } = await client.query<AccountRow>(
      `UPDATE staff_users SET name = $2, role = $3, tenant_ids = $4, token_version = token_version + 1, updated_at = now()
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, name, role, tenantIds],
    );
    const after = toAccount(rows[0]!);
    const fields: (keyof StaffAccount)[] = [...changed, "tokenVersion"];
    await record(client, actor, "user.updated", after, { before: pick(before, fields), after: pick(after, fields) });
    return { account: after, changed };
  });
}

/**
 * Disables or re-enables an account. A disabled account cannot sign in and its open sessions end at
 * once. Nobody may disable themselves, and the last active admin cannot be disabled.
 */
export async function setStaffDisabled(id: number, disabled: boolean, actor: string): Promise<StaffStatusChange> {
  return withTransaction(async (client) => {
    await lockStaffChanges(client);
    const before = await loadForUpdate(client, id);
    if ((before.disabledAt !== null) === disabled) return { account: before, changed: false };
    if (disabled) {
      if (staffTarget(before.email) === actor) {
        throw new AppError("conflict", "You cannot disable your own account; ask another admin to do it.");
      }
      if (before.role === "admin") await assertAnotherActiveAdmin(client, before, "disabling them");
    }
    const { rows } = await client.query<AccountRow>(
      `UPDATE staff_users SET disabled_at = CASE WHEN $2 THEN now() END, token_version = token_version + 1, updated_at = now()
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, disabled],
    );
    const after = toAccount(rows[0]!);
    const fields: (keyof StaffAccount)[] = ["disabledAt", "tokenVersion"];
    await record(client, actor, disabled ? "user.disabled" : "user.enabled", after, {
      before: pick(before, fields),
      after: pick(after, fields),
    });
    return { account: after, changed: true };
  });
}

/** Sets a new password; every open session of the account ends. */
export async function resetStaffPassword(id: number, newPassword: string, actor: string): Promise<StaffAccount> {
  checkPassword(newPassword);
  const passwordHash = await hashPassword(newPassword);
  return withTransaction(async (client) => {
    await lockStaffChanges(client);
    const before = await loadForUpdate(client, id);
    const { rows } = await client.query<AccountRow>(
      `UPDATE staff_users SET password_hash = $2, token_version = token_version + 1, updated_at = now()
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, passwordHash],
    );
    const after = toAccount(rows[0]!);
    await record(client, actor, "user.password-reset", after, {
      before: pick(before, ["tokenVersion"]),
      after: pick(after, ["tokenVersion"]),
    });
    return after;
  });
}
