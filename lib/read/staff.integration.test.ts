import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/console/admin/users/route";
import { GET as getNewUser } from "@/app/api/console/admin/users/new/route";
import { operator } from "@/lib/auth/staff-administrator";
import { createStaffUser, updateStaffUser } from "@/lib/auth/users";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import type { NewStaffUserModel } from "./new-staff-user";
import type { StaffListModel } from "./staff";

// The staff list's and the create form's read models through their routes: only the accounts whose
// products are all within the admin's own, never a hash; only what the admin may hand out.

useFreshDatabase();

const ROOT = operator("cli:root");
const account = (email: string, tenantIds: string[], role: "agent" | "admin" = "agent") =>
  createStaffUser({ email, name: email, role, tenantIds, password: "correct-horse-battery" }, ROOT);

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("st-alpha"));
  await ensureTenant(getPool(), tenantSpec("st-beta"));
  await account("alpha@st.test", ["st-alpha"]);
  await account("beta@st.test", ["st-beta"]);
  await account("both@st.test", ["st-alpha", "st-beta"]);
  await account("none@st.test", []);
  const edited = await account("edited@st.test", ["st-alpha"]);
  await updateStaffUser(edited.id, { name: "Edited" }, ROOT);
});

async function read<T>(handler: typeof GET, path: string): Promise<{ status: number; model: T | null; text: string }> {
  const response = await handler(new NextRequest(`http://localhost${path}`), { params: Promise.resolve({}) });
  const text = await response.text();
  return { status: response.status, model: response.ok ? superjson.parse<T>(text) : null, text };
}

async function denials(): Promise<number> {
  const { rows } = await getPool().query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'access.denied'`);
  return rows[0]!.n;
}

describe("GET /api/console/admin/users", () => {
  it("lists only the accounts within the admin's products (and those with none), each with its last change, never a hash", async () => {
    signInAs("admin", ["st-alpha"]);
    const { model, text } = await read<StaffListModel>(GET, "/api/console/admin/users");
    expect(model!.users.map((u) => u.email)).toEqual(["alpha@st.test", "edited@st.test", "none@st.test"]);
    expect(model!.users.find((u) => u.email === "edited@st.test")!.lastChange).toMatchObject({ action: "user.updated", actor: "cli:root" });
    expect(Object.keys(model!.users[0]!).sort()).toEqual(["disabledAt", "email", "id", "lastChange", "name", "role", "tenantIds", "updatedAt"]);
    expect(text).not.toMatch(/passwordHash|password_hash|tokenVersion|\$2[aby]\$/);
  });

  it("lists every account to an admin of every product", async () => {
    signInAs("admin", ["st-alpha", "st-beta"]);
    const { model } = await read<StaffListModel>(GET, "/api/console/admin/users");
    expect(model!.users.map((u) => u.email)).toEqual(["alpha@st.test", "beta@st.test", "both@st.test", "edited@st.test", "none@st.test"]);
  });

  it("refuses a manager (no users:manage), and audits the refusal", async () => {
    signInAs("manager", ["st-alpha"]);
    const before = await denials();
    expect((await read(GET, "/api/console/admin/users")).status).toBe(403);
    expect(await denials()).toBe(before + 1);
  });
});

describe("GET /api/console/admin/users/new", () => {
  it("offers the admin's own products and the roles up to their own", async () => {
    signInAs("admin", ["st-alpha"]);
    const { model } = await read<NewStaffUserModel>(getNewUser, "/api/console/admin/users/new");
    expect(model!.tenants.map((t) => t.id)).toEqual(["st-alpha"]);
    expect(model!.roles).toEqual(["agent", "ops", "manager", "admin"]);
    expect(model!.minPasswordLength).toBeGreaterThanOrEqual(8);
  });

  it("refuses an agent", async () => {
    signInAs("agent", ["st-alpha"]);
    expect((await read(getNewUser, "/api/console/admin/users/new")).status).toBe(403);
  });
});
