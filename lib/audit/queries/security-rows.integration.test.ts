import { beforeAll, describe, expect, it } from "vitest";
import { getPool } from "@/lib/db/pool";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import type { AuditRow } from "./audit-row";
import type { AuditPosition } from "./filters";
import { SECURITY_CHOICES, parseSecuritySearch, type SecurityFilters } from "./security-filters";
import { listSecurityRows } from "./security-rows";

// The admins' security log: the facts without a tenant and those of the admin's own tenants, never
// another tenant's, and only security facts (not settings, approvals, notes, …).

useFreshDatabase();

const T0 = new Date("2026-11-20T10:00:00.000Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

async function fact(seconds: number, tenant: string | null, action: string, extra: { actor?: string; target?: string; ip?: string; detail?: object } = {}) {
  await getPool().query(`INSERT INTO audit_events (tenant_id, actor, action, target, ip, detail, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    tenant,
    extra.actor ?? "staff:admin@example.com",
    action,
    extra.target ?? null,
    extra.ip ?? null,
    JSON.stringify(extra.detail ?? {}),
    at(seconds),
  ]);
}

beforeAll(async () => {
  for (const id of ["shop-a", "shop-b"]) await ensureTenant(getPool(), tenantSpec(id));
  await fact(1, null, "sign-in.failed", { actor: "anonymous", target: "ann@example.com", ip: "10.0.0.2", detail: { why: "wrong-password" } });
  await fact(2, null, "sign-in.locked", { actor: "anonymous", target: "ann@example.com", ip: "10.0.0.2" });
  await fact(3, null, "sign-in.succeeded", { actor: "staff:bob@example.com", target: "bob@example.com", ip: "10.0.0.1" });
  await fact(4, null, "user.created", { target: "staff:ann@example.com", detail: { after: { role: "agent" } } });
  await fact(5, "shop-a", "apikey.created", { target: "apikey:ak_a" });
  await fact(6, "shop-b", "apikey.revoked", { target: "apikey:ak_b" });
  await fact(7, "shop-a", "access.denied", { actor: "staff:ann@example.com", target: "order:shop-a/A-1" });
  await fact(8, "shop-b", "access.denied", { actor: "staff:ann@example.com", target: "order:shop-b/B-1" });
  await fact(9, "shop-a", "settings.updated", { target: "tenant:shop-a" });
  await fact(10, null, "apikey.auth-failed", { actor: "anonymous", target: "address:10.0.0.9", ip: "10.0.0.9" });
  await fact(11, null, "sign-out", { actor: "staff:bob@example.com", target: "bob@example.com" });
  await fact(12, null, "audit.exported", { actor: "staff:boss@example.com" });
});

const label = (r: AuditRow) => `${r.tenantId ?? "-"}:${r.log === "action" ? r.action : r.log}`;

async function rowsFor(scope: readonly string[], filters: SecurityFilters = {}): Promise<string[]> {
  const page = await listSecurityRows({ scope, filters, limit: 100 });
  expect(page.timedOut).toBe(false);
  return page.rows.map(label);
}

describe("listSecurityRows", () => {
  it("shows an admin the facts without a tenant and their own tenants' security facts, newest first — never another tenant's", async () => {
    expect(await rowsFor(["shop-a"])).toEqual([
      "-:sign-out",
      "-:apikey.auth-failed",
      "shop-a:access.denied",
      "shop-a:apikey.created",
      "-:user.created",
      "-:sign-in.succeeded",
      "-:sign-in.locked",
      "-:sign-in.failed",
    ]);
    expect(await rowsFor([])).toEqual(["-:sign-out", "-:apikey.auth-failed", "-:user.created", "-:sign-in.succeeded", "-:sign-in.locked", "-:sign-in.failed"]);
    const both = await rowsFor(["shop-a", "shop-b"]);
    expect(both).toContain("shop-b:apikey.revoked");
    expect(both).toContain("shop-b:access.denied");
    // Settings, exports and the other non-security facts are the explorer's.
    expect(both.filter((l) => l.endsWith("settings.updated") || l.endsWith("audit.exported"))).toEqual([]);
  });

  it("filters by kind or action, by person (actor or target), by address and by time", async () => {
    expect(await rowsFor(["shop-a"], { action: "sign-in" })).toEqual(["-:sign-out", "-:apikey.auth-failed", "-:sign-in.succeeded", "-:sign-in.locked", "-:sign-in.failed"]);
    expect(await rowsFor(["shop-a"], { action: "sign-in.locked" })).toEqual(["-:sign-in.locked"]);
    expect(await rowsFor(["shop-a", "shop-b"], { action: "apikey" })).toEqual(["shop-b:apikey.revoked", "shop-a:apikey.created"]);
    // The person as an email: what they did, and what was done to their account.
    expect(await rowsFor(["shop-a"], { who: "ann@example.com" })).toEqual(["shop-a:access.denied", "-:user.created", "-:sign-in.locked", "-:sign-in.failed"]);
    expect(await rowsFor(["shop-a"], { who: "staff:bob@example.com" })).toEqual(["-:sign-out", "-:sign-in.succeeded"]);
    expect(await rowsFor(["shop-a"], { ip: "10.0.0.2" })).toEqual(["-:sign-in.locked", "-:sign-in.failed"]);
    expect(await rowsFor(["shop-a"], { from: at(3), to: at(8) })).toEqual(["shop-a:access.denied", "shop-a:apikey.created", "-:user.created", "-:sign-in.succeeded"]);
  });

  it("pages with keyset positions, forwards and back", async () => {
    const seen: string[] = [];
    let position: AuditPosition = {};
    const firsts: AuditRow[] = [];
    for (;;) {
      const page = await listSecurityRows({ scope: ["shop-a"], filters: {}, position, limit: 3 });
      firsts.push(page.rows[0]!);
      seen.push(...page.rows.map(label));
      if (!page.older) break;
      position = { after: page.older };
    }
    expect(seen).toEqual(await rowsFor(["shop-a"]));
    const back = await listSecurityRows({ scope: ["shop-a"], filters: {}, position: { before: { at: firsts[1]!.at, log: "action", id: firsts[1]!.id } }, limit: 3 });
    expect(back.rows.map(label)).toEqual(seen.slice(0, 3));
  });

  it("reads its filters from the URL and drops what it cannot read", () => {
    const parsed = parseSecuritySearch({ action: "settings.updated", who: " ann@example.com ", ip: "not an ip", from: "2026-11-20T10:00" });
    expect(parsed.filters).toEqual({ who: "ann@example.com", from: new Date("2026-11-20T10:00:00Z") });
    expect(Object.fromEntries(parsed.invalid.map((i) => [i.field, i.problem]))).toEqual({
      action: { kind: "invalid-choice", options: [...SECURITY_CHOICES] },
      ip: { kind: "invalid-format" },
    });
  });
});
