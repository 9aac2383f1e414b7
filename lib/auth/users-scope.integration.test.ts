import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { AppError } from "@/lib/errors";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { administratorOf, operator, type StaffAdministrator } from "./staff-administrator";
import {
  createStaffUser,
  listStaffUsers,
  resetStaffPassword,
  setStaffDisabled,
  updateStaffUser,
  type NewStaffUser,
} from "./users";

// Scoped staff administration in the domain functions themselves (the console actions are tested
// in app/[locale]/(console)/admin): what a scoped administrator reaches and hands out, whoever calls.

useFreshDatabase();

const ROOT = operator("cli:root");

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("alpha"));
  await ensureTenant(getPool(), tenantSpec("beta"));
});

let serial = 0;
function newUser(overrides: Partial<NewStaffUser> = {}): NewStaffUser {
  serial += 1;
  return { email: `scoped${serial}@test.local`, name: `User ${serial}`, role: "agent", tenantIds: ["alpha"], password: "correct-horse-battery", ...overrides };
}

async function appError(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** staff_users and audit_events as they stand: a refused change must leave both alone. */
async function snapshot() {
  const { rows } = await getPool().query(
    `SELECT (SELECT json_agg(s ORDER BY id) FROM staff_users s) AS staff, (SELECT count(*)::int FROM audit_events) AS audits`,
  );
  return rows[0] as unknown;
}

async function adminOf(tenantIds: string[]): Promise<{ id: number; by: StaffAdministrator }> {
  const account = await createStaffUser(newUser({ role: "admin", tenantIds }), ROOT);
  return { id: account.id, by: administratorOf(account) };
}

describe("a scoped administrator", () => {
  it("cannot reach an account with a tenant beyond their own: not found for every change, nothing written", async () => {
    const { by: adminA } = await adminOf(["alpha"]);
    const both = await createStaffUser(newUser({ tenantIds: ["alpha", "beta"] }), ROOT);
    const before = await snapshot();

    for (const attempt of [
      updateStaffUser(both.id, { name: "Taken over" }, adminA),
      setStaffDisabled(both.id, true, adminA),
      resetStaffPassword(both.id, "a-password-of-mine", adminA),
    ]) {
      expect((await appError(attempt)).code).toBe("not-found");
    }
    expect(await snapshot()).toEqual(before);
  });

  it("cannot hand out a tenant they lack, neither to a new account, nor to an old one, nor to themselves", async () => {
    const { id: self, by: adminA } = await adminOf(["alpha"]);
    const agent = await createStaffUser(newUser({ tenantIds: ["alpha"] }), ROOT);
    const before = await snapshot();
    const beyond = { code: "forbidden", problem: { kind: "tenants-beyond-scope", tenants: ["beta"] } };

    expect(await appError(createStaffUser(newUser({ tenantIds: ["alpha", "beta"] }), adminA))).toMatchObject(beyond);
    expect(await appError(updateStaffUser(agent.id, { tenantIds: ["alpha", "beta"] }, adminA))).toMatchObject(beyond);
    expect(await appError(updateStaffUser(self, { tenantIds: ["alpha", "beta"] }, adminA))).toMatchObject(beyond);
    expect(await snapshot()).toEqual(before);
  });

  it("cannot hand out a role above their own (a manager, were managers ever to manage staff)", async () => {
    const manager = await createStaffUser(newUser({ role: "manager", tenantIds: ["alpha"] }), ROOT);
    const agent = await createStaffUser(newUser({ tenantIds: ["alpha"] }), ROOT);
    const by = administratorOf(manager);
    const before = await snapshot();
    const above = { code: "forbidden", problem: { kind: "role-beyond-own", role: "admin", own: "manager" } };

    expect(await appError(createStaffUser(newUser({ role: "admin" }), by))).toMatchObject(above);
    expect(await appError(updateStaffUser(agent.id, { role: "admin" }, by))).toMatchObject(above);
    expect(await appError(updateStaffUser(manager.id, { role: "admin" }, by))).toMatchObject(above);
    expect(await snapshot()).toEqual(before);
    expect((await updateStaffUser(agent.id, { role: "manager" }, by)).changed).toEqual(["role"]);
  });

  it("changes what is within their scope, narrowing included", async () => {
    const { by: adminA } = await adminOf(["alpha"]);
    const agent = await createStaffUser(newUser({ tenantIds: ["alpha"] }), adminA);

    expect((await updateStaffUser(agent.id, { name: "Renamed", tenantIds: [] }, adminA)).changed).toEqual(["name", "tenantIds"]);
    expect((await setStaffDisabled(agent.id, true, adminA)).changed).toBe(true);
    expect((await resetStaffPassword(agent.id, "another-long-password", adminA)).tokenVersion).toBe(3);
  });
});

describe("listStaffUsers", () => {
  it("lists every account for the operator, ordered by email, with its last change", async () => {
    const account = await createStaffUser(newUser({ email: "aaa-first@test.local" }), ROOT);
    await updateStaffUser(account.id, { name: "Renamed" }, operator("cli:someone"));

    const list = await listStaffUsers(ROOT);

    const emails = list.map((u) => u.email);
    expect(emails).toEqual([...emails].sort());
    expect(list.find((u) => u.id === account.id)).toMatchObject({ email: "aaa-first@test.local", name: "Renamed", lastChange: { action: "user.updated", actor: "cli:someone" } });
  });

  it("lists for an admin only the accounts whose tenants are all within the admin's own", async () => {
    const adminA = await createStaffUser(newUser({ role: "admin", tenantIds: ["alpha"] }), ROOT);
    const alpha = await createStaffUser(newUser({ tenantIds: ["alpha"] }), ROOT);
    const none = await createStaffUser(newUser({ tenantIds: [] }), ROOT);
    const both = await createStaffUser(newUser({ tenantIds: ["alpha", "beta"] }), ROOT);
    const beta = await createStaffUser(newUser({ tenantIds: ["beta"] }), ROOT);

    const seen = (await listStaffUsers(administratorOf(adminA))).map((u) => u.id);

    expect(seen).toEqual(expect.arrayContaining([adminA.id, alpha.id, none.id]));
    expect(seen).not.toContain(both.id);
    expect(seen).not.toContain(beta.id);
    const everyone = (await listStaffUsers(ROOT)).map((u) => u.id);
    expect(everyone).toEqual(expect.arrayContaining([both.id, beta.id]));
  });
});
