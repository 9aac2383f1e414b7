import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { ROLES, ROLE_PERMISSIONS, type Permission, type Role } from "./permissions";
import type { Staff } from "./staff";

// Proves "one way in": every server action and every route handler in app/ is built by
// defineAction / staffRoute with a permission, and refuses anonymous and under-privileged callers
// without writing anything. A new entry point that skips the builders fails here.

const session = vi.hoisted(() => ({ staff: null as Staff | null }));
vi.mock("@/lib/auth/current-staff", () => ({ currentStaff: async () => session.staff }));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn(), revalidateTag: vi.fn() }));

useFreshDatabase();

const APP = path.join(process.cwd(), "app");
/** Routes open to anonymous callers on purpose. */
const PUBLIC_ROUTES = new Set(["app/api/auth/[...nextauth]/route.ts"]);
const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.includes(".test."))
    .map((e) => path.join(e.parentPath, e.name));
}

const files = await filesUnder(APP);
const actionFiles: string[] = [];
for (const file of files) {
  const text = await readFile(file, "utf8");
  if (/^\s*["']use server["']/.test(text)) actionFiles.push(file);
}
const routeFiles = files.filter((f) => path.basename(f) === "route.ts" && !PUBLIC_ROUTES.has(path.relative(process.cwd(), f)));

function staffWith(role: Role): Staff {
  return { id: 1, email: `${role}@test`, name: role, role, tenantIds: ["scope"], locale: "en", tokenVersion: 0 };
}

/** A role without the permission; undefined for one every staff member holds (profile:edit). */
function roleLacking(permission: Permission): Role | undefined {
  return ROLES.find((r) => !ROLE_PERMISSIONS[r].includes(permission));
}

/** Row counts of every table but audit_events (refusals are audited there on purpose). */
async function tableCounts(): Promise<Record<string, number>> {
  const { rows } = await getPool().query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'audit_events'`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of rows) {
    const r = await getPool().query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table_name}"`);
    counts[table_name] = r.rows[0]!.n;
  }
  return counts;
}

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("scope"));
});

describe("entry points are found", () => {
  it("finds the app's routes (the enumeration itself works)", () => {
    expect(routeFiles.length).toBeGreaterThan(0);
  });
});

describe.each(actionFiles.map((f) => [path.relative(process.cwd(), f), f]))("server actions in %s", (_, file) => {
  it("every export is built by defineAction and refuses anonymous and under-privileged callers, writing nothing", async () => {
    const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    const exports = Object.entries(mod);
    expect(exports.length).toBeGreaterThan(0);
    for (const [name, value] of exports) {
      expect(typeof value, `${name} must be a function`).toBe("function");
      const action = value as ((input: unknown) => Promise<{ ok: boolean; error?: { code: string } }>) & { permission?: Permission };
      expect(action.permission, `${name} must be built with defineAction and a permission`).toBeDefined();
      const before = await tableCounts();

      session.staff = null;
      expect(await action({})).toMatchObject({ ok: false, error: { code: "unauthenticated" } });
      const lacking = roleLacking(action.permission!);
      if (lacking) {
        session.staff = staffWith(lacking);
        expect(await action({})).toMatchObject({ ok: false, error: { code: "forbidden" } });
      }

      expect(await tableCounts()).toEqual(before);
    }
  });
});

describe.each(routeFiles.map((f) => [path.relative(process.cwd(), f), f]))("route %s", (_, file) => {
  it("every method is built by a route wrapper and refuses callers without the right credentials, writing nothing", async () => {
    const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    const methods = HTTP_METHODS.filter((m) => m in mod);
    expect(methods.length).toBeGreaterThan(0);
    for (const method of methods) {
      const handler = mod[method] as ((req: NextRequest, ctx: { params: Promise<object> }) => Promise<Response>) & {
        permission?: Permission;
        auth?: "api-key";
      };
      expect(handler.permission ?? handler.auth, `${method} must be built with staffRoute or apiRoute`).toBeDefined();
      const call = (headers: Record<string, string> = {}) =>
        handler(
          new NextRequest("http://localhost/x", {
            method,
            headers: { ...headers, ...(method === "GET" ? {} : { "content-type": "application/json" }) },
            ...(method === "GET" ? {} : { body: "{}" }),
          }),
          { params: Promise.resolve({ orderNo: "X-1" }) },
        );
      const before = await tableCounts();

      session.staff = null;
      const anonymous = await call();
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ error: { code: "unauthenticated" } });
      if (handler.permission) {
        const lacking = roleLacking(handler.permission);
        if (lacking) {
          session.staff = staffWith(lacking);
          expect((await call()).status).toBe(403);
        }
      } else {
        // A staff session is no API key, and neither is a key that was never issued.
        session.staff = staffWith("manager");
        expect((await call()).status).toBe(401);
        expect((await call({ authorization: `Bearer oo_000000000000_${"A".repeat(43)}` })).status).toBe(401);
      }

      expect(await tableCounts()).toEqual(before);
    }
  });
});
