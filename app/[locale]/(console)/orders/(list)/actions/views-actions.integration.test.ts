import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/console/me/route";
import type { Me } from "@/lib/read/me";
import type { Role } from "@/lib/auth/permissions";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs } from "@/lib/test/session";
import { listViews } from "@/lib/views/saved-views";
import { deleteViewAction } from "./delete-view";
import { renameViewAction } from "./rename-view";
import { saveSharedViewAction } from "./save-shared-view";
import { saveViewAction } from "./save-view";

// Saved views as staff use them: personal ones for anyone who sees orders, shared ones for ops and
// up, changed only by their creator or a manager; each change one audit fact in its transaction,
// and a refused change writes nothing but the refusal's own audit row.

useFreshDatabase();

const people: Record<string, { id: number; role: Role; tenantIds: string[] }> = {};

async function person(email: string, role: Role, tenantIds: string[]) {
  const row = await getPrisma().staffUser.create({ data: { email, name: email, passwordHash: "x", role, tenantIds } });
  people[email] = { id: Number(row.id), role, tenantIds };
}

const as = (email: string) => {
  const p = people[email]!;
  return signInAs(p.role, p.tenantIds, { id: p.id, email });
};

/** Every view as it stands and every audit row but refusals (which are audited on purpose). */
async function written(): Promise<unknown> {
  const { rows } = await getPool().query(
    `SELECT (SELECT json_agg(v ORDER BY id) FROM saved_views v) AS views,
            (SELECT count(*)::int FROM audit_events WHERE action <> 'access.denied') AS audits`,
  );
  return rows[0];
}

async function facts(id: number): Promise<{ action: string; actor: string; tenant_id: string | null; detail: Record<string, unknown> }[]> {
  const { rows } = await getPool().query(`SELECT action, actor, tenant_id, detail FROM audit_events WHERE target = $1 AND action <> 'access.denied' ORDER BY id`, [`view:${id}`]);
  return rows;
}

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec("alpha"));
  await ensureTenant(getPool(), tenantSpec("beta"));
  await person("agent@a.test", "agent", ["alpha"]);
  await person("agent2@a.test", "agent", ["alpha", "beta"]);
  await person("ops@a.test", "ops", ["alpha"]);
  await person("ops2@a.test", "ops", ["alpha"]);
  await person("manager@a.test", "manager", ["alpha"]);
  await person("ops@b.test", "ops", ["beta"]);
});

describe("personal views", () => {
  it("anyone who sees orders saves the filters on screen; the fact is audited with them", async () => {
    as("agent@a.test");
    const result = await saveViewAction({ name: "  Stuck paid  ", tenant: "alpha", state: "paid", stuck: "1", from: "2026-11-01", tz: "Asia/Shanghai", q: "" });
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(result.data.href).toBe(`/orders?tenant=alpha&state=paid&from=2026-11-01&tz=Asia%2FShanghai&stuck=1&view=${result.data.id}`);
    expect(await facts(result.data.id)).toEqual([
      {
        action: "view.saved",
        actor: "staff:agent@a.test",
        tenant_id: "alpha",
        detail: { name: "Stuck paid", shared: false, filters: { state: "paid", from: "2026-11-01", tz: "Asia/Shanghai", stuck: true } },
      },
    ]);
    // Only its owner sees it.
    expect((await listViews(people["agent@a.test"]!)).personal.map((v) => v.name)).toEqual(["Stuck paid"]);
    expect((await listViews(people["agent2@a.test"]!)).personal).toEqual([]);
  });

  it("refuses a name already in the list, whatever its case, and writes nothing", async () => {
    as("agent@a.test");
    const before = await written();
    const result = await saveViewAction({ name: "STUCK PAID", state: "created" });
    expect(result).toMatchObject({ ok: false, error: { code: "conflict", problem: { kind: "view-name-taken", name: "STUCK PAID" } } });
    expect(await written()).toEqual(before);
    // Another person's list is another list.
    as("agent2@a.test");
    expect(await saveViewAction({ name: "Stuck paid" })).toMatchObject({ ok: true });
  });

  it("refuses filters the list could not open as saved: a reversed range, an unknown zone, a state that is none", async () => {
    as("agent@a.test");
    const before = await written();
    const fields = async (input: Record<string, unknown>) => {
      const result = await saveViewAction({ name: "Bad", ...input });
      return result.ok ? null : { code: result.error.code, fields: Object.keys(result.error.fields ?? {}).sort() };
    };
    expect(await fields({ tz: "Mars/Olympus_Mons", state: "PAID", from: "2026-13-45" })).toEqual({ code: "invalid-input", fields: ["from", "state", "tz"] });
    expect(await fields({ from: "2026-11-05", to: "2026-11-01" })).toEqual({ code: "invalid-input", fields: ["to"] });
    expect(await written()).toEqual(before);
  });

  it("a product outside the caller's scope is not found (audited), nothing saved", async () => {
    as("agent@a.test");
    const before = await written();
    expect(await saveViewAction({ name: "Beta", tenant: "beta" })).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect(await written()).toEqual(before);
  });

  it("someone else's personal view cannot be renamed or deleted, not even by a manager: not found", async () => {
    as("agent@a.test");
    const own = await saveViewAction({ name: "Mine" });
    if (!own.ok) throw new Error("not saved");
    const before = await written();
    for (const email of ["agent2@a.test", "manager@a.test"]) {
      as(email);
      expect(await renameViewAction({ id: own.data.id, name: "Theirs" })).toMatchObject({ ok: false, error: { code: "not-found" } });
      expect(await deleteViewAction({ id: own.data.id })).toMatchObject({ ok: false, error: { code: "not-found" } });
    }
    expect(await written()).toEqual(before);
    as("agent@a.test");
    expect(await renameViewAction({ id: own.data.id, name: "Mine, renamed" })).toMatchObject({ ok: true, data: { name: "Mine, renamed" } });
    expect(await deleteViewAction({ id: own.data.id })).toMatchObject({ ok: true, data: { deleted: true } });
    expect((await facts(own.data.id)).map((f) => [f.action, f.detail])).toEqual([
      ["view.saved", { name: "Mine", shared: false, filters: {} }],
      ["view.renamed", { before: "Mine", after: "Mine, renamed", shared: false }],
      ["view.deleted", { name: "Mine, renamed", shared: false, filters: {} }],
    ]);
  });
});

describe("shared views", () => {
  it("ops share with a product; everyone on it sees the view, nobody elsewhere", async () => {
    as("ops@a.test");
    const result = await saveSharedViewAction({ name: "Refunding too long", tenant: "alpha", state: "refunding", stuck: "1" });
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect((await facts(result.data.id)).map((f) => [f.action, f.tenant_id, f.detail.shared])).toEqual([["view.saved", "alpha", true]]);
    expect((await listViews(people["agent@a.test"]!)).shared.map((v) => [v.name, v.ownerActor])).toEqual([["Refunding too long", "staff:ops@a.test"]]);
    expect((await listViews(people["ops@b.test"]!)).shared).toEqual([]);
  });

  it("agents may not share (forbidden), and a shared view needs a product", async () => {
    as("agent@a.test");
    const before = await written();
    expect(await saveSharedViewAction({ name: "Team", tenant: "alpha" })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    as("ops@a.test");
    expect(await saveSharedViewAction({ name: "Team", tenant: "" })).toMatchObject({ ok: false, error: { code: "invalid-input", fields: { tenant: expect.any(Array) } } });
    expect(await written()).toEqual(before);
  });

  it("only its creator or a manager renames or deletes it; another ops is told who can", async () => {
    as("ops@a.test");
    const shared = await saveSharedViewAction({ name: "Paid, not delivered", tenant: "alpha", state: "paid" });
    if (!shared.ok) throw new Error("not saved");
    const id = shared.data.id;
    const denied = await getPrisma().auditEvent.count({ where: { action: "access.denied", target: `view:${id}` } });
    const before = await written();

    as("ops2@a.test");
    const refused = await renameViewAction({ id, name: "Mine now" });
    expect(refused).toMatchObject({ ok: false, error: { code: "forbidden", problem: { kind: "view-not-yours", creator: "ops@a.test" } } });
    if (!refused.ok) expect(refused.error.message).toBe("Only ops@a.test, who saved this shared view, or a manager can change it.");
    expect(await deleteViewAction({ id })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    as("ops@b.test");
    expect(await deleteViewAction({ id })).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect(await written()).toEqual(before);
    expect(await getPrisma().auditEvent.count({ where: { action: "access.denied", target: `view:${id}` } })).toBe(denied + 3);

    as("manager@a.test");
    expect(await renameViewAction({ id, name: "Paid, waiting for goods" })).toMatchObject({ ok: true });
    // A shared name is unique within the product's shared views.
    as("ops@a.test");
    expect(await saveSharedViewAction({ name: "paid, WAITING for goods", tenant: "alpha" })).toMatchObject({ ok: false, error: { code: "conflict" } });
    expect(await deleteViewAction({ id })).toMatchObject({ ok: true, data: { deleted: true } });
    // Deleting again (a double click, a colleague first) is no error and writes nothing.
    expect(await deleteViewAction({ id })).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect((await facts(id)).map((f) => [f.action, f.actor])).toEqual([
      ["view.saved", "staff:ops@a.test"],
      ["view.renamed", "staff:manager@a.test"],
      ["view.deleted", "staff:ops@a.test"],
    ]);
  });

  it("a personal view of a product the owner no longer has leaves the navigation", async () => {
    as("agent2@a.test");
    const saved = await saveViewAction({ name: "Beta only", tenant: "beta" });
    expect(saved.ok).toBe(true);
    expect((await listViews({ id: people["agent2@a.test"]!.id, tenantIds: ["alpha"] })).personal.map((v) => v.name)).not.toContain("Beta only");
    expect((await listViews(people["agent2@a.test"]!)).personal.map((v) => v.name)).toContain("Beta only");
  });
});

describe("the navigation's views (the frame's read model, GET /api/console/me)", () => {
  it("lists the caller's own views and those shared with their products, each as the link it opens", async () => {
    const read = async () => {
      const response = await GET(new NextRequest("http://localhost/api/console/me"), { params: Promise.resolve({}) });
      expect(response.status).toBe(200);
      return superjson.parse<Me>(await response.text()).views;
    };
    as("agent@a.test");
    const agent = await read();
    expect(agent.personal.map((v) => v.name)).toEqual((await listViews(people["agent@a.test"]!)).personal.map((v) => v.name));
    expect(agent.personal.every((v) => v.href.startsWith("/orders?") && v.href.includes("view="))).toBe(true);
    expect(agent.shared.map((v) => [v.name, v.sharedWith])).toEqual([["Refunding too long", "alpha"]]);
    as("ops@b.test");
    expect((await read()).shared).toEqual([]);
  });
});
