import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/console/admin/users/[id]/route";
import { operator } from "@/lib/auth/staff-administrator";
import { createStaffUser, type StaffAccount } from "@/lib/auth/users";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { readStaffUser, type StaffUserModel } from "./staff-user";

// One staff member's read model through its route: an account with a product beyond the admin's
// own is not found (and the attempt audited), like a missing one; never a hash.

useFreshDatabase();

const ROOT = operator("cli:root");
let admin: StaffAccount;
let agent: StaffAccount;
let both: StaffAccount;

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("su-alpha"));
  await ensureTenant(getPool(), tenantSpec("su-beta"));
  const make = (email: string, role: "agent" | "manager" | "admin", tenantIds: string[]) =>
    createStaffUser({ email, name: email, role, tenantIds, password: "correct-horse-battery" }, ROOT);
  admin = await make("admin@su.test", "admin", ["su-alpha"]);
  agent = await make("agent@su.test", "agent", ["su-alpha"]);
  both = await make("both@su.test", "manager", ["su-alpha", "su-beta"]);
});

async function read(id: string): Promise<{ status: number; model: StaffUserModel | null; text: string }> {
  const response = await GET(new NextRequest(`http://localhost/api/console/admin/users/${id}`), { params: Promise.resolve({ id }) });
  const text = await response.text();
  return { status: response.status, model: response.ok ? superjson.parse<StaffUserModel>(text) : null, text };
}

async function denials(): Promise<number> {
  const { rows } = await getPool().query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'access.denied'`);
  return rows[0]!.n;
}

function signInAsAdmin(tenantIds = ["su-alpha"], role: "admin" | "manager" = "admin") {
  signInAs(role, tenantIds, { id: admin.id, email: admin.email });
}

describe("GET /api/console/admin/users/[id]", () => {
  it("reads an account within the admin's products, with what the admin may hand it, never a hash", async () => {
    signInAsAdmin();
    const { model, text } = await read(String(agent.id));
    expect(model!.user).toEqual({ id: agent.id, email: "agent@su.test", name: "agent@su.test", role: "agent", tenantIds: ["su-alpha"], disabledAt: null, createdAt: agent.createdAt });
    expect(model!.tenants.map((t) => t.id)).toEqual(["su-alpha"]);
    expect(model!.roles).toEqual(["agent", "ops", "manager", "admin"]);
    expect(model!.isSelf).toBe(false);
    expect(text).not.toMatch(/passwordHash|password_hash|tokenVersion|\$2[aby]\$/);
  });

  it("says when the account is the admin's own", async () => {
    signInAsAdmin();
    expect((await read(String(admin.id))).model!.isSelf).toBe(true);
  });

  it("keeps an account's own role selectable where it is above the reader's (only admins hold the route: the model alone)", async () => {
    const manager = signInAs("manager", ["su-alpha"], { id: both.id, email: both.email });
    expect((await readStaffUser(manager, admin.id))!.roles).toEqual(["agent", "ops", "manager", "admin"]);
    expect((await readStaffUser(manager, agent.id))!.roles).toEqual(["agent", "ops", "manager"]);
  });

  it("answers not found for an account with a product beyond the admin's own, and audits the attempt", async () => {
    signInAsAdmin();
    const before = await denials();
    const { status, text } = await read(String(both.id));
    expect(status).toBe(404);
    expect(text).not.toContain("both@su.test");
    expect(await denials()).toBe(before + 1);
  });

  it("answers not found for a missing account and an id that is none, without a refusal to audit", async () => {
    signInAsAdmin();
    const before = await denials();
    for (const id of ["999999", "abc", "0", "1e3", "-1", "1234567890123456"]) expect((await read(id)).status, id).toBe(404);
    expect(await denials()).toBe(before);
  });

  it("refuses a role without users:manage", async () => {
    signInAs("manager", ["su-alpha"]);
    expect((await read(String(agent.id))).status).toBe(403);
  });
});
