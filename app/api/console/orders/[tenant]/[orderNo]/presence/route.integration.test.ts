import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import superjson from "superjson";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { getPrisma } from "@/lib/db/prisma";
import { one } from "@/lib/db/sql";
import type { OrderLive } from "@/lib/presence/order-presence";
import { createOrder } from "@/lib/seed/orders";
import { ensureTenant, tenantSpec } from "@/lib/seed/tenants";
import { useFreshDatabase } from "@/lib/test/database";
import { signInAs, signOut } from "@/lib/test/session";
import { POST } from "./route";

// The presence poll's route: the staff session, orders:view, the tenant scope (another tenant's order
// is not found, and nothing is written), bad input answered 400 with the field, and a POST from
// another site refused before it writes.

useFreshDatabase();

const HOME = "pres-home";
const OTHER = "pres-other";
const staffIds: Record<string, number> = {};

beforeAll(async () => {
  await ensureTenant(getPool(), tenantSpec(HOME));
  await ensureTenant(getPool(), tenantSpec(OTHER));
  await createOrder(getPool(), { tenantId: HOME, orderNo: "PR-1" });
  await createOrder(getPool(), { tenantId: OTHER, orderNo: "PR-X" });
  for (const [email, name, role] of [
    ["agent@example.com", "Ada", "agent"],
    ["ops@example.com", "Oskar", "ops"],
    ["admin@example.com", "Adm", "admin"],
  ] as const) {
    staffIds[role] = Number((await getPrisma().staffUser.create({ data: { email, name, passwordHash: "x", role, tenantIds: [HOME] } })).id);
  }
});

const as = (role: "agent" | "ops" | "admin", tenants: readonly string[] = [HOME]) => signInAs(role, tenants, { id: staffIds[role]!, name: role });

async function post(tenant: string, orderNo: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const request = new NextRequest(`http://console.example/api/console/orders/${tenant}/${orderNo}/presence`, {
    method: "POST",
    headers: { "content-type": "application/json", host: "console.example", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const response = await POST(request, { params: Promise.resolve({ tenant, orderNo }) });
  return { status: response.status, text: await response.text() };
}

/** Every row, a left tab's mark included: a refused request writes none. */
const presenceRows = () => one(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM order_presence`).then((r) => r.n);
/** The rows of tabs still on an order. */
const presentRows = () => one(getPool(), z.object({ n: z.number() }), `SELECT count(*)::int AS n FROM order_presence WHERE left_at IS NULL`).then((r) => r.n);

// Each test counts the rows it writes from none (a left tab's mark stays until its expiry).
beforeEach(() => getPool().query(`DELETE FROM order_presence`));
const denied = () => getPrisma().auditEvent.count({ where: { action: "access.denied" } });

describe("POST /api/console/orders/{tenant}/{orderNo}/presence", () => {
  it("tells each of two colleagues about the other by name and role, and forgets a tab that says it is leaving", async () => {
    const agentTab = randomUUID();
    as("agent");
    const alone = await post(HOME, "PR-1", { tab: agentTab, since: 0 });
    expect(alone.status, alone.text).toBe(200);
    expect(superjson.parse<OrderLive>(alone.text)).toEqual({ state: "created", version: 0, changes: [], present: [] });

    as("ops");
    const opsTab = randomUUID();
    const seen = superjson.parse<OrderLive>((await post(HOME, "PR-1", { tab: opsTab, since: 0 }, { "sec-fetch-site": "same-origin" })).text);
    expect(seen.present).toEqual([{ name: "Ada", role: "agent", since: expect.any(String) }]);
    // Nothing of the colleague but name, role and since: no email, no id, no tab.
    expect(Object.keys(seen.present[0]!).sort()).toEqual(["name", "role", "since"]);

    as("agent");
    expect(superjson.parse<OrderLive>((await post(HOME, "PR-1", { tab: agentTab, since: 0 })).text).present.map((p) => p.name)).toEqual(["Oskar"]);
    as("ops");
    const left = await post(HOME, "PR-1", { tab: opsTab, since: 0, leaving: true });
    expect(left.status).toBe(200);
    expect(superjson.parse(left.text)).toEqual({ left: 1 });
    as("agent");
    expect(superjson.parse<OrderLive>((await post(HOME, "PR-1", { tab: agentTab, since: 0 })).text).present).toEqual([]);
    await post(HOME, "PR-1", { tab: agentTab, since: 0, leaving: true });
    expect(await presentRows()).toBe(0);
  });

  it("answers another tenant's order as not found, audits the attempt and writes no presence", async () => {
    as("ops");
    const before = await denied();
    const foreign = await post(OTHER, "PR-X", { tab: randomUUID(), since: 0 });
    expect(foreign.status).toBe(404);
    expect(JSON.parse(foreign.text)).toMatchObject({ error: { code: "not-found" } });
    // Exactly as an order that does not exist.
    const missing = await post(HOME, "NO-SUCH", { tab: randomUUID(), since: 0 });
    expect(missing.status).toBe(404);
    expect(await denied()).toBe(before + 1);
    expect(await presenceRows()).toBe(0);
  });

  it("refuses a role without orders:view, and a caller without a session, writing nothing", async () => {
    as("admin");
    expect((await post(HOME, "PR-1", { tab: randomUUID(), since: 0 })).status).toBe(403);
    signOut();
    expect((await post(HOME, "PR-1", { tab: randomUUID(), since: 0 })).status).toBe(401);
    expect(await presenceRows()).toBe(0);
  });

  it("answers bad input 400 naming the field, never a 500, and writes nothing", async () => {
    as("agent");
    const cases: [unknown, string | null][] = [
      [{ since: 0 }, "tab"],
      [{ tab: "not-a-uuid", since: 0 }, "tab"],
      [{ tab: randomUUID(), since: -1 }, "since"],
      [{ tab: randomUUID(), since: 1.5 }, "since"],
      [{ tab: randomUUID(), since: "3" }, "since"],
      [{ tab: randomUUID(), since: 0, leaving: false }, "leaving"],
      [{ tab: randomUUID(), since: 0, staffId: 1 }, null],
      ["{not json", null],
      [[], null],
    ];
    for (const [body, field] of cases) {
      const answer = await post(HOME, "PR-1", body);
      expect(answer.status, `${JSON.stringify(body)}: ${answer.text}`).toBe(400);
      const error = (JSON.parse(answer.text) as { error: { code: string; fields?: Record<string, string[]> } }).error;
      expect(error.code).toBe("invalid-input");
      if (field) expect(Object.keys(error.fields ?? {})).toContain(field);
    }
    const plain = new NextRequest(`http://console.example/api/console/orders/${HOME}/PR-1/presence`, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" });
    expect((await POST(plain, { params: Promise.resolve({ tenant: HOME, orderNo: "PR-1" }) })).status).toBe(415);
    expect(await presenceRows()).toBe(0);
  });

  it("refuses a POST another site's page sent with the session cookie, before it writes", async () => {
    as("agent");
    const body = { tab: randomUUID(), since: 0 };
    expect((await post(HOME, "PR-1", body, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await post(HOME, "PR-1", body, { "sec-fetch-site": "same-site" })).status).toBe(403);
    expect((await post(HOME, "PR-1", body, { origin: "https://evil.example" })).status).toBe(403);
    expect((await post(HOME, "PR-1", body, { origin: "null" })).status).toBe(403);
    expect(await presenceRows()).toBe(0);
    // The console's own page: the same host.
    expect((await post(HOME, "PR-1", body, { origin: "http://console.example" })).status).toBe(200);
    expect(await presenceRows()).toBe(1);
    await post(HOME, "PR-1", { ...body, leaving: true });
  });
});
