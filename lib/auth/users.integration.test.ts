import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { transaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { DEMO_PASSWORD, DEMO_STAFF, seedDemoStaff } from "@/lib/seed/staff";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { verifyPassword } from "./passwords";
import { loadActiveStaff } from "./staff";
import { administratorOf, operator } from "./staff-administrator";
import {
  createStaffUser,
  listStaffUsers,
  resetStaffPassword,
  setStaffDisabled,
  updateStaffUser,
  type NewStaffUser,
  type StaffAccount,
} from "./users";

useFreshDatabase();

// The operator (the CLI's caller) reaches every account; scoped admins are tested in users-scope.
const ROOT = operator("cli:root");
const ACTOR = ROOT.actor;
const PASSWORD = "correct-horse-battery";

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("alpha"));
  await ensureTenant(getPool(), tenantSpec("beta"));
});

let serial = 0;
function newUser(overrides: Partial<NewStaffUser> = {}): NewStaffUser {
  serial += 1;
  return { email: `user${serial}@test.local`, name: `User ${serial}`, role: "agent", tenantIds: ["alpha"], password: PASSWORD, ...overrides };
}

async function auditRows(target: string) {
  const { rows } = await getPool().query<{ actor: string; action: string; target: string; detail: Record<string, unknown> }>(
    `SELECT actor, action, target, detail FROM audit_events WHERE target = $1 ORDER BY id`,
    [target],
  );
  return rows;
}

async function storedRow(id: number) {
  const { rows } = await getPool().query<{ passwordHash: string; tokenVersion: number; disabled: boolean }>(
    `SELECT password_hash AS "passwordHash", token_version AS "tokenVersion", disabled_at IS NOT NULL AS disabled FROM staff_users WHERE id = $1`,
    [id],
  );
  return rows[0]!;
}

/** Resolves to the AppError a call threw (fails the test if it did not throw one). */
async function appError(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** Test setup, not the code under test: leave exactly these accounts as the active admins. */
async function onlyActiveAdmins(ids: readonly number[]): Promise<void> {
  await getPool().query(`UPDATE staff_users SET disabled_at = now() WHERE role = 'admin' AND disabled_at IS NULL AND id <> ALL($1::bigint[])`, [ids]);
}

/** Waits (polling, no fixed sleep) until another session of this database waits for a row lock. */
async function waitForLockWaiter(): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    const { rows } = await getPool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("no session started waiting for the lock");
}

async function activeAdminCount(): Promise<number> {
  const { rows } = await getPool().query<{ n: number }>(`SELECT count(*)::int AS n FROM staff_users WHERE role = 'admin' AND disabled_at IS NULL`);
  return rows[0]!.n;
}

describe("createStaffUser", () => {
  it("creates the account with a lowercased email, sorted scope, a bcrypt hash, and audits it without secrets", async () => {
    const account = await createStaffUser(
      { email: "  New.Person@Test.Local ", name: " New Person ", role: "ops", tenantIds: ["beta", "alpha", "beta"], password: PASSWORD },
      ROOT,
    );

    expect(account).toMatchObject({
      email: "new.person@test.local",
      name: "New Person",
      role: "ops",
      tenantIds: ["alpha", "beta"],
      locale: "en",
      tokenVersion: 0,
      disabledAt: null,
    });
    const row = await storedRow(account.id);
    expect(await verifyPassword(PASSWORD, row.passwordHash)).toBe(true);
    expect(await auditRows("staff:new.person@test.local")).toEqual([
      {
        actor: ACTOR,
        action: "user.created",
        target: "staff:new.person@test.local",
        detail: { after: { email: "new.person@test.local", name: "New Person", role: "ops", tenantIds: ["alpha", "beta"] } },
      },
    ]);
  });

  it("refuses a second account with the same email (any case) as a conflict, writing nothing", async () => {
    const first = await createStaffUser(newUser(), ROOT);
    const error = await appError(createStaffUser(newUser({ email: first.email.toUpperCase() }), ROOT));

    expect(error.code).toBe("conflict");
    expect(error.problem).toEqual({ kind: "email-taken", email: first.email });
    const { rows } = await getPool().query(`SELECT count(*)::int AS n FROM staff_users WHERE email = $1`, [first.email]);
    expect(rows[0]).toEqual({ n: 1 });
    expect((await auditRows(`staff:${first.email}`)).map((r) => r.action)).toEqual(["user.created"]);
  });

  it("refuses 10 concurrent creates of one email except one", async () => {
    const spec = newUser();
    const settled = await Promise.allSettled(Array.from({ length: 10 }, () => createStaffUser(spec, ROOT)));

    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
    const reasons = settled.flatMap((s) => (s.status === "rejected" ? [s.reason as AppError] : []));
    expect(reasons.map((r) => r.code)).toEqual(Array(9).fill("conflict"));
    expect(await auditRows(`staff:${spec.email}`)).toHaveLength(1);
  });

  it("refuses an email a lock-less insert (the demo seed) took meanwhile: the unique index answers email-taken", async () => {
    const spec = newUser();
    let creating: Promise<unknown> = Promise.resolve();
    await transaction(async ({ client }) => {
      await client.query(`INSERT INTO staff_users (email, name, password_hash, role) VALUES ($1, 'Seeded', 'x', 'agent')`, [spec.email]);
      // createStaffUser cannot see the uncommitted row, so it inserts too and waits on the index.
      creating = createStaffUser(spec, ROOT).then(
        () => null,
        (e: unknown) => e,
      );
      await waitForLockWaiter();
    });

    expect(await creating).toMatchObject({ code: "conflict", problem: { kind: "email-taken", email: spec.email } });
    expect(await auditRows(`staff:${spec.email}`)).toEqual([]);
  });

  it("refuses unknown tenants and bad passwords as invalid input", async () => {
    const unknown = await appError(createStaffUser(newUser({ tenantIds: ["alpha", "nope", "zilch"] }), ROOT));
    expect(unknown.code).toBe("invalid-input");
    expect(unknown.problem).toEqual({ kind: "unknown-tenants", tenants: ["nope", "zilch"] });

    const short = await appError(createStaffUser(newUser({ password: "short" }), ROOT));
    expect(short.code).toBe("invalid-input");
    expect(short.fields).toEqual({ password: [{ kind: "too-short", min: 12 }] });

    const long = await appError(createStaffUser(newUser({ password: "密".repeat(25) }), ROOT));
    expect(long.fields).toEqual({ password: [{ kind: "password-too-long", max: 72 }] });
  });
});

describe("updateStaffUser", () => {
  it("changes role and scope, bumps token_version (old sessions die) and audits before/after", async () => {
    const account = await createStaffUser(newUser({ role: "agent", tenantIds: ["alpha"] }), ROOT);
    expect(await loadActiveStaff(account.id, 0)).not.toBeNull();

    const { account: after, changed } = await updateStaffUser(account.id, { role: "manager", tenantIds: ["beta", "alpha"] }, ROOT);

    expect(changed).toEqual(["role", "tenantIds"]);
    expect(after).toMatchObject({ role: "manager", tenantIds: ["alpha", "beta"], tokenVersion: 1, name: account.name });
    expect(await loadActiveStaff(account.id, 0)).toBeNull();
    expect(await loadActiveStaff(account.id, 1)).toMatchObject({ role: "manager", tenantIds: ["alpha", "beta"] });
    const rows = await auditRows(`staff:${account.email}`);
    expect(rows.map((r) => r.action)).toEqual(["user.created", "user.updated"]);
    expect(rows[1]).toEqual({
      actor: ACTOR,
      action: "user.updated",
      target: `staff:${account.email}`,
      detail: {
        before: { role: "agent", tenantIds: ["alpha"], tokenVersion: 0 },
        after: { role: "manager", tenantIds: ["alpha", "beta"], tokenVersion: 1 },
      },
    });
  });

  it("writes nothing when nothing changes", async () => {
    const account = await createStaffUser(newUser({ tenantIds: ["alpha", "beta"] }), ROOT);

    const result = await updateStaffUser(account.id, { role: account.role, tenantIds: ["beta", "alpha"], name: account.name }, ROOT);

    expect(result.changed).toEqual([]);
    expect((await storedRow(account.id)).tokenVersion).toBe(0);
    expect(await auditRows(`staff:${account.email}`)).toHaveLength(1);
  });

  it("answers not-found for an unknown id", async () => {
    const error = await appError(updateStaffUser(987654, { name: "x" }, ROOT));
    expect(error.code).toBe("not-found");
  });
});

describe("setStaffDisabled", () => {
  it("disables (sessions end, audited) and enables again (a new token_version)", async () => {
    const account = await createStaffUser(newUser(), ROOT);

    const disabled = await setStaffDisabled(account.id, true, ROOT);
    expect(disabled.changed).toBe(true);
    expect(disabled.account.disabledAt).toBeInstanceOf(Date);
    expect(disabled.account.tokenVersion).toBe(1);
    expect(await loadActiveStaff(account.id, 1)).toBeNull();

    const again = await setStaffDisabled(account.id, true, ROOT);
    expect(again.changed).toBe(false);
    expect(again.account.tokenVersion).toBe(1);

    const enabled = await setStaffDisabled(account.id, false, ROOT);
    expect(enabled.account).toMatchObject({ disabledAt: null, tokenVersion: 2 });
    expect(await loadActiveStaff(account.id, 2)).toMatchObject({ email: account.email });

    const rows = await auditRows(`staff:${account.email}`);
    expect(rows.map((r) => r.action)).toEqual(["user.created", "user.disabled", "user.enabled"]);
    expect(rows[1]!.detail).toEqual({
      before: { disabledAt: null, tokenVersion: 0 },
      after: { disabledAt: disabled.account.disabledAt!.toISOString(), tokenVersion: 1 },
    });
    expect(rows[2]!.detail).toEqual({
      before: { disabledAt: disabled.account.disabledAt!.toISOString(), tokenVersion: 1 },
      after: { disabledAt: null, tokenVersion: 2 },
    });
  });

  it("refuses to let an admin disable their own account", async () => {
    const admin = await createStaffUser(newUser({ role: "admin" }), ROOT);
    const other = await createStaffUser(newUser({ role: "admin" }), ROOT);
    await onlyActiveAdmins([admin.id, other.id]);

    const error = await appError(setStaffDisabled(admin.id, true, administratorOf(admin)));

    expect(error.code).toBe("conflict");
    expect(error.problem).toEqual({ kind: "cannot-disable-self" });
    expect(await storedRow(admin.id)).toMatchObject({ disabled: false, tokenVersion: 0 });
  });

  it("refuses to disable or demote the last active admin, and allows it once there is another", async () => {
    const last = await createStaffUser(newUser({ role: "admin" }), ROOT);
    await onlyActiveAdmins([last.id]);

    const disable = await appError(setStaffDisabled(last.id, true, ROOT));
    expect(disable.code).toBe("conflict");
    expect(disable.problem).toEqual({ kind: "last-admin", email: last.email });
    const demote = await appError(updateStaffUser(last.id, { role: "manager" }, ROOT));
    expect(demote.code).toBe("conflict");
    expect(demote.problem).toEqual({ kind: "last-admin", email: last.email });
    expect(await storedRow(last.id)).toMatchObject({ disabled: false, tokenVersion: 0 });
    expect(await activeAdminCount()).toBe(1);

    const successor = await createStaffUser(newUser({ role: "agent" }), ROOT);
    await updateStaffUser(successor.id, { role: "admin" }, ROOT);
    expect((await setStaffDisabled(last.id, true, ROOT)).changed).toBe(true);
    expect(await activeAdminCount()).toBe(1);
  });

  it("8 admins each disabling another at the same moment: exactly 7 succeed, 1 conflict, one admin remains", async () => {
    const admins: StaffAccount[] = [];
    for (let i = 0; i < 8; i += 1) admins.push(await createStaffUser(newUser({ role: "admin" }), ROOT));
    await onlyActiveAdmins(admins.map((a) => a.id));
    // Open the connections first, so the eight transactions really overlap instead of queueing on connects.
    await Promise.all(Array.from({ length: 10 }, () => getPool().query("SELECT pg_sleep(0.05)")));

    const settled = await Promise.allSettled(
      admins.map((admin, i) => setStaffDisabled(admins[(i + 1) % admins.length]!.id, true, administratorOf(admin))),
    );

    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(7);
    const rejected = settled.flatMap((s) => (s.status === "rejected" ? [s.reason as AppError] : []));
    expect(rejected.map((e) => e.code)).toEqual(["conflict"]);
    expect(await activeAdminCount()).toBe(1);
  });
});

describe("resetStaffPassword", () => {
  it("sets a new password that verifies, ends sessions, and audits without the password or hash", async () => {
    const account = await createStaffUser(newUser(), ROOT);
    const before = await storedRow(account.id);

    const after = await resetStaffPassword(account.id, "a-brand-new-password", ROOT);

    expect(after.tokenVersion).toBe(1);
    const row = await storedRow(account.id);
    expect(await verifyPassword("a-brand-new-password", row.passwordHash)).toBe(true);
    expect(await verifyPassword(PASSWORD, row.passwordHash)).toBe(false);
    expect(await loadActiveStaff(account.id, 0)).toBeNull();
    const rows = await auditRows(`staff:${account.email}`);
    expect(rows[1]).toEqual({
      actor: ACTOR,
      action: "user.password-reset",
      target: `staff:${account.email}`,
      detail: { before: { tokenVersion: 0 }, after: { tokenVersion: 1 } },
    });
    const everything = JSON.stringify(rows);
    expect(everything).not.toContain("a-brand-new-password");
    expect(everything).not.toContain(row.passwordHash);
    expect(everything).not.toContain(before.passwordHash);
  });

  it("refuses a password shorter than the minimum and changes nothing", async () => {
    const account = await createStaffUser(newUser(), ROOT);
    const error = await appError(resetStaffPassword(account.id, "too-short", ROOT));
    expect(error.code).toBe("invalid-input");
    expect(error.fields).toEqual({ password: [{ kind: "too-short", min: 12 }] });
    expect((await storedRow(account.id)).tokenVersion).toBe(0);
  });
});

describe("seedDemoStaff", () => {
  it("creates exactly the 5 demo accounts once, with the demo password, and leaves them alone the second time", async () => {
    const count = async () => (await getPool().query<{ n: number }>(`SELECT count(*)::int AS n FROM staff_users`)).rows[0]!.n;
    const start = await count();

    const first = await seedDemoStaff(getPool());

    expect(await count()).toBe(start + 5);
    expect(first.map(({ email, role, tenants, created }) => ({ email, role, tenants, created }))).toEqual([
      { email: "agent@example.com", role: "agent", tenants: ["fangzhou", "xiaoxiao"], created: true },
      { email: "ops@example.com", role: "ops", tenants: ["fangzhou", "xiaoxiao"], created: true },
      { email: "manager@example.com", role: "manager", tenants: ["fangzhou", "xiaoxiao"], created: true },
      { email: "admin@example.com", role: "admin", tenants: ["fangzhou", "xiaoxiao"], created: true },
      { email: "agent.xiaoxiao@example.com", role: "agent", tenants: ["xiaoxiao"], created: true },
    ]);
    const { rows } = await getPool().query<{ email: string; role: string; tenantIds: string[]; passwordHash: string }>(
      `SELECT email, role, tenant_ids AS "tenantIds", password_hash AS "passwordHash" FROM staff_users WHERE email = ANY($1::text[]) ORDER BY email`,
      [DEMO_STAFF.map((s) => s.email)],
    );
    expect(rows.map(({ email, role, tenantIds }) => ({ email, role, tenantIds }))).toEqual([
      { email: "admin@example.com", role: "admin", tenantIds: ["fangzhou", "xiaoxiao"] },
      { email: "agent.xiaoxiao@example.com", role: "agent", tenantIds: ["xiaoxiao"] },
      { email: "agent@example.com", role: "agent", tenantIds: ["fangzhou", "xiaoxiao"] },
      { email: "manager@example.com", role: "manager", tenantIds: ["fangzhou", "xiaoxiao"] },
      { email: "ops@example.com", role: "ops", tenantIds: ["fangzhou", "xiaoxiao"] },
    ]);
    for (const row of rows) expect(await verifyPassword(DEMO_PASSWORD, row.passwordHash)).toBe(true);

    // A demo admin changed a password: seeding again must not undo it.
    const admin = (await listStaffUsers(ROOT)).find((u) => u.email === "admin@example.com")!;
    await resetStaffPassword(admin.id, "the-admins-own-password", ROOT);

    const second = await seedDemoStaff(getPool());

    expect(await count()).toBe(start + 5);
    expect(second.map((s) => s.created)).toEqual([false, false, false, false, false]);
    expect(second.map((s) => s.email)).toEqual(first.map((s) => s.email));
    const { passwordHash } = await storedRow(admin.id);
    expect(await verifyPassword("the-admins-own-password", passwordHash)).toBe(true);
    const { rows: audits } = await getPool().query(`SELECT count(*)::int AS n FROM audit_events WHERE actor = 'system:seed'`);
    expect(audits[0]).toEqual({ n: 5 });
  });
});
