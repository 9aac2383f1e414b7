import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Staff } from "@/lib/auth/staff";
import { operator } from "@/lib/auth/staff-administrator";
import { createStaffUser, type NewStaffUser, type StaffAccount } from "@/lib/auth/users";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { createUser, type CreateUserInput } from "./create-user";
import { resetPassword } from "./reset-password";
import { setUserDisabled } from "./set-user-disabled";
import { updateUser } from "./update-user";

// The staff actions as a scoped admin fires them: an admin of tenant "alpha" only can neither make
// nor change accounts of "beta", nor widen their own scope; an admin of both can do all of it.

const session = vi.hoisted(() => ({ managersManageStaff: false }));
// Only admins hold users:manage today; to prove the role rule is more than that, one test lends it
// to managers.
vi.mock("@/lib/auth/permissions", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/auth/permissions")>();
  return {
    ...actual,
    can: (role: Parameters<typeof actual.can>[0], permission: Parameters<typeof actual.can>[1]) =>
      actual.can(role, permission) || (session.managersManageStaff && role === "manager" && permission === "users:manage"),
  };
});

useFreshDatabase();

const ROOT = operator("cli:root");
let serial = 0;
function newUser(overrides: Partial<NewStaffUser> = {}): NewStaffUser {
  serial += 1;
  return { email: `user${serial}@test.local`, name: `User ${serial}`, role: "agent", tenantIds: ["alpha"], password: "correct-horse-battery", ...overrides };
}

/** The create form as the browser sends it; a blank password asks for a generated one. */
function newForm(overrides: Partial<CreateUserInput> = {}): CreateUserInput {
  const { email, name } = newUser();
  return { email, name, role: "agent", tenantIds: ["alpha"], password: "", ...overrides };
}

function signIn(account: StaffAccount, locale: Staff["locale"] = "en"): void {
  signInAs(account.role, account.tenantIds, { id: account.id, email: account.email, name: account.name, locale, tokenVersion: account.tokenVersion });
}

/** Every staff row as it stands, every key, and every audit row but refusals (which are audited on purpose). */
async function written(): Promise<unknown> {
  const { rows } = await getPool().query(
    `SELECT (SELECT json_agg(s ORDER BY id) FROM staff_users s) AS staff, (SELECT count(*)::int FROM api_keys) AS keys,
            (SELECT count(*)::int FROM audit_events WHERE action <> 'access.denied') AS audits`,
  );
  return rows[0];
}

async function denials(): Promise<number> {
  const { rows } = await getPool().query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'access.denied'`);
  return rows[0]!.n;
}

let adminA: StaffAccount;
let adminAB: StaffAccount;

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("alpha"));
  await ensureTenant(getPool(), tenantSpec("beta"));
  adminA = await createStaffUser(newUser({ role: "admin", tenantIds: ["alpha"] }), ROOT);
  adminAB = await createStaffUser(newUser({ role: "admin", tenantIds: ["alpha", "beta"] }), ROOT);
});

describe("an admin of alpha only", () => {
  it("cannot create an account with beta, alone or beside alpha: forbidden and audited, nothing written", async () => {
    signIn(adminA);
    const before = await written();
    const deniedBefore = await denials();

    for (const tenantIds of [["beta"], ["alpha", "beta"]]) {
      const result = await createUser(newForm({ tenantIds, role: "admin" }));
      expect(result).toMatchObject({ ok: false, error: { code: "forbidden", problem: { kind: "tenants-beyond-scope", tenants: ["beta"] } } });
    }
    expect(await written()).toEqual(before);
    expect(await denials()).toBe(deniedBefore + 2);
  });

  it("cannot update, reset or disable an account that has beta: not found, nothing written", async () => {
    const both = await createStaffUser(newUser({ tenantIds: ["alpha", "beta"] }), ROOT);
    signIn(adminA);
    const before = await written();

    const results = [
      await updateUser({ id: both.id, name: "Mine now", tenantIds: ["alpha"] }),
      await resetPassword({ id: both.id, password: "" }),
      await setUserDisabled({ id: both.id, disabled: true }),
    ];

    for (const result of results) expect(result).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect(await written()).toEqual(before);
  });

  it("cannot add beta to their own account, nor to one of theirs: forbidden, in the admin's language", async () => {
    const agent = await createStaffUser(newUser({ tenantIds: ["alpha"] }), ROOT);
    signIn(adminA, "zh");
    const before = await written();

    const self = await updateUser({ id: adminA.id, tenantIds: ["alpha", "beta"] });
    const other = await updateUser({ id: agent.id, tenantIds: ["alpha", "beta"] });

    for (const result of [self, other]) {
      expect(result).toMatchObject({ ok: false, error: { code: "forbidden", problem: { kind: "tenants-beyond-scope", tenants: ["beta"] } } });
    }
    expect(self.ok ? null : self.error.message).toBe("超出你自己权限范围的产品：beta。");
    expect(await written()).toEqual(before);
  });

  it("cannot give a role above their own (a manager lent users:manage cannot make an admin): forbidden, nothing written", async () => {
    const manager = await createStaffUser(newUser({ role: "manager", tenantIds: ["alpha"] }), ROOT);
    const agent = await createStaffUser(newUser({ tenantIds: ["alpha"] }), ROOT);
    session.managersManageStaff = true;
    try {
      signIn(manager);
      const before = await written();

      const created = await createUser(newForm({ role: "admin" }));
      const promoted = await updateUser({ id: agent.id, role: "admin" });
      const selfPromoted = await updateUser({ id: manager.id, role: "admin" });

      for (const result of [created, promoted, selfPromoted]) {
        expect(result).toMatchObject({ ok: false, error: { code: "forbidden", problem: { kind: "role-beyond-own", role: "admin", own: "manager" } } });
      }
      expect(await written()).toEqual(before);
    } finally {
      session.managersManageStaff = false;
    }
  });

  it("still manages the accounts of alpha", async () => {
    signIn(adminA);
    const created = await createUser(newForm());
    expect(created).toMatchObject({ ok: true, data: { generatedPassword: expect.any(String) } });
    const id = created.ok ? created.data.id : 0;

    expect(await updateUser({ id, name: "Renamed" })).toMatchObject({ ok: true, data: { changed: ["name"] } });
    expect(await setUserDisabled({ id, disabled: true })).toMatchObject({ ok: true, data: { disabled: true, changed: true } });
  });
});

describe("an admin of alpha and beta", () => {
  it("creates, updates, resets and disables accounts with beta", async () => {
    signIn(adminAB);

    const created = await createUser(newForm({ tenantIds: ["beta", "alpha"], role: "admin" }));
    expect(created).toMatchObject({ ok: true });
    const id = created.ok ? created.data.id : 0;
    const agent = await createStaffUser(newUser({ tenantIds: ["alpha"] }), ROOT);

    expect(await updateUser({ id: agent.id, tenantIds: ["alpha", "beta"], role: "manager" })).toMatchObject({ ok: true, data: { changed: ["role", "tenantIds"] } });
    expect(await resetPassword({ id, password: "" })).toMatchObject({ ok: true, data: { generatedPassword: expect.any(String) } });
    expect(await setUserDisabled({ id, disabled: true })).toMatchObject({ ok: true, data: { disabled: true, changed: true } });
    const { rows } = await getPool().query(`SELECT role, tenant_ids AS "tenantIds", disabled_at IS NOT NULL AS disabled FROM staff_users WHERE id = ANY($1::bigint[]) ORDER BY id`, [
      [id, agent.id],
    ]);
    expect(rows).toEqual([
      { role: "admin", tenantIds: ["alpha", "beta"], disabled: true },
      { role: "manager", tenantIds: ["alpha", "beta"], disabled: false },
    ]);
  });
});
