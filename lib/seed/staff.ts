import type pg from "pg";
import { z } from "zod";
import { one, rows } from "@/lib/db/sql";
import { hashPassword } from "@/lib/auth/passwords";
import type { Role } from "@/lib/auth/permissions";
import { DEMO_TENANTS, ensureTenant } from "./tenants";

/**
 * The demo accounts' one password. Shorter than MIN_PASSWORD_LENGTH on purpose — easy to type in
 * a demo — so these accounts are inserted here directly rather than through createStaffUser(),
 * which enforces the length rule for every real account.
 */
export const DEMO_PASSWORD = "orderops-demo";

export interface DemoStaffSpec {
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly tenants: readonly string[];
}

const BOTH = ["fangzhou", "xiaoxiao"] as const;

/** One account per role on both demo products, plus an agent who sees only xiaoxiao (tenant scoping). */
export const DEMO_STAFF: readonly DemoStaffSpec[] = [
  { email: "agent@example.com", name: "Demo Agent", role: "agent", tenants: BOTH },
  { email: "ops@example.com", name: "Demo Ops", role: "ops", tenants: BOTH },
  { email: "manager@example.com", name: "Demo Manager", role: "manager", tenants: BOTH },
  { email: "admin@example.com", name: "Demo Admin", role: "admin", tenants: BOTH },
  { email: "agent.xiaoxiao@example.com", name: "Demo Agent (Xiaoxiao)", role: "agent", tenants: ["xiaoxiao"] },
];

export interface SeededStaff {
  readonly email: string;
  readonly role: Role;
  readonly tenants: readonly string[];
  readonly password: string;
  /** false when the account already existed: it was left exactly as it was (password included). */
  readonly created: boolean;
}

/**
 * Creates the demo accounts that do not exist yet and returns the whole list for printing.
 * Idempotent: an existing email is never touched, so a demo admin who changed a password keeps it.
 */
export async function seedDemoStaff(db: pg.Pool | pg.PoolClient): Promise<SeededStaff[]> {
  // Staff scopes name tenants; make sure the demo ones exist so a scope never points at nothing.
  for (const tenant of DEMO_TENANTS) await ensureTenant(db, tenant);

  const existing = await rows(db, z.object({ email: z.string() }), `SELECT email FROM staff_users WHERE email = ANY($1::text[])`, [
    DEMO_STAFF.map((s) => s.email),
  ]);
  const present = new Set(existing.map((r) => r.email));

  const seeded: SeededStaff[] = [];
  for (const spec of DEMO_STAFF) {
    let created = false;
    if (!present.has(spec.email)) {
      // One statement: the account and its audit row (same detail shape as createStaffUser), or
      // neither if a concurrent seed got there first.
      const { n } = await one(
        db,
        z.object({ n: z.number() }),
        `WITH ins AS (
           INSERT INTO staff_users (email, name, password_hash, role, tenant_ids) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (email) DO NOTHING
           RETURNING email, name, role, tenant_ids
         ), a AS (
           INSERT INTO audit_events (actor, action, target, detail)
           SELECT 'system:seed', 'user.created', 'staff:' || email,
                  jsonb_build_object('after', jsonb_build_object('email', email, 'name', name, 'role', role, 'tenantIds', to_jsonb(tenant_ids)))
           FROM ins
         )
         SELECT count(*)::int AS n FROM ins`,
        [spec.email, spec.name, await hashPassword(DEMO_PASSWORD), spec.role, [...spec.tenants].sort()],
      );
      created = n === 1;
    }
    seeded.push({ email: spec.email, role: spec.role, tenants: spec.tenants, password: DEMO_PASSWORD, created });
  }
  return seeded;
}

/** The demo accounts as the terminal shows them after seeding. */
export function formatDemoStaff(staff: readonly SeededStaff[]): string[] {
  return [
    `demo accounts (demo data only; every password is ${DEMO_PASSWORD}):`,
    ...staff.map((s) => `  ${s.email.padEnd(28)} ${s.role.padEnd(8)} ${s.tenants.join(", ")}${s.created ? "" : " (already there)"}`),
  ];
}
